use clap::Parser;

/// mimalloc: bulk imports hand buffers from reading threads to preparing
/// and writing ones, and glibc's per-thread arenas kept hundreds of MB of
/// freed memory resident (and were slower).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = lexstack::cli::Cli::parse();
    match lexstack::cli::run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            let chain: &(dyn std::error::Error + 'static) = err.as_ref();
            eprintln!("error: {}", lexstack::error::chain_text(chain));
            std::process::ExitCode::FAILURE
        }
    }
}
