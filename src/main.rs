use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = lexstack::cli::Cli::parse();
    match lexstack::cli::run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
