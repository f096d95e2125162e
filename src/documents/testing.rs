//! Test material: real PDFs and DOCX files built on the spot, and a small
//! HTTP/1.1 server on loopback that serves them and misbehaves on request.

use std::io::{Cursor, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use lopdf::content::{Content, Operation};
use lopdf::{Object, Stream, dictionary};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// A paragraph of a brief, long enough for a page to count as text.
pub const BRIEF_LINES: [&str; 4] = [
    "The Supreme Court held in Roe v. Wade, 410 U.S. 113 (1973), that the right",
    "of privacy is broad enough. See also Marbury v. Madison, 5 U.S. 137 (1803),",
    "and Brown v. Board of Education, 347 U.S. 483 (1954), for the principle that",
    "courts say what the law is; accord 28 U.S.C. \u{a7} 1331 and Fed. R. Civ. P. 12(b)(6).",
];

/// A PDF whose pages show the given lines in a standard font, so it has a
/// text layer. Lines are Latin-1, which WinAnsiEncoding shares for letters
/// such as the section sign.
pub fn pdf_with_text(pages: &[&[&str]]) -> Vec<u8> {
    let contents = pages
        .iter()
        .map(|lines| {
            let mut operations = vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 11.into()]),
                Operation::new("TL", vec![14.into()]),
                Operation::new("Td", vec![72.into(), 720.into()]),
            ];
            for line in lines.iter() {
                let latin1: Vec<u8> = line.chars().map(|c| u8::try_from(c).unwrap()).collect();
                operations.push(Operation::new("Tj", vec![Object::string_literal(latin1)]));
                operations.push(Operation::new("T*", vec![]));
            }
            operations.push(Operation::new("ET", vec![]));
            Content { operations }
        })
        .collect();
    pdf_with_contents(contents)
}

/// A PDF whose pages only paint a grey rectangle, like a scan's image: no
/// text layer.
pub fn pdf_without_text(page_count: usize) -> Vec<u8> {
    let page = Content {
        operations: vec![
            Operation::new("g", vec![0.5.into()]),
            Operation::new("re", vec![72.into(), 72.into(), 451.into(), 698.into()]),
            Operation::new("f", vec![]),
        ],
    };
    pdf_with_contents(vec![page; page_count])
}

fn pdf_with_contents(pages: Vec<Content>) -> Vec<u8> {
    let mut document = lopdf::Document::with_version("1.5");
    let pages_id = document.new_object_id();
    let font_id = document.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = document.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids = Vec::new();
    for content in pages {
        let content_id =
            document.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = document.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        });
        kids.push(Object::Reference(page_id));
    }
    let count = kids.len() as i64;
    document.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
    );
    let catalog_id = document.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    document.trailer.set("Root", catalog_id);
    document.compress();
    let mut bytes = Vec::new();
    document.save_to(&mut bytes).unwrap();
    bytes
}

/// WordprocessingML for a body of paragraphs, each a list of runs.
pub fn document_xml(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
 xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>{body}<w:sectPr/></w:body></w:document>"#
    )
}

/// A DOCX as Word writes it, deflated, with the given parts besides the
/// package plumbing.
pub fn docx_with_parts(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let content_types = br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
    let rels = br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
    let mut all: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", content_types),
        ("_rels/.rels", rels),
    ];
    all.extend_from_slice(parts);
    zip_with(&all, CompressionMethod::Deflated)
}

pub fn docx_with_body(body: &str) -> Vec<u8> {
    docx_with_parts(&[("word/document.xml", document_xml(body).as_bytes())])
}

/// The brief as a DOCX: one paragraph per line.
pub fn brief_docx() -> Vec<u8> {
    let body: String = BRIEF_LINES
        .iter()
        .map(|line| format!("<w:p><w:r><w:t>{}</w:t></w:r></w:p>", escape(line)))
        .collect();
    docx_with_body(&body)
}

pub fn brief_pdf() -> Vec<u8> {
    pdf_with_text(&[&BRIEF_LINES, &BRIEF_LINES])
}

pub fn zip_with(entries: &[(&str, &[u8])], method: CompressionMethod) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

/// What the test server answers for a path.
#[derive(Clone)]
pub enum Reply {
    Document {
        content_type: &'static str,
        body: Vec<u8>,
    },
    Redirect(String),
    Status(u16),
    /// A body without Content-Length, ended by closing the connection.
    Unsized(Vec<u8>),
    /// A Content-Length far beyond the body that follows.
    Declared(u64),
    /// Headers, then one byte a second, for ever.
    Trickle,
    /// Accepts the request and never answers.
    Silent,
}

type Routes = Arc<dyn Fn(&str) -> Reply + Send + Sync>;

/// Serves `routes` on 127.0.0.1 until the test's runtime stops.
pub async fn serve(routes: impl Fn(&str) -> Reply + Send + Sync + 'static) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let routes: Routes = Arc::new(routes);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer(stream, routes.clone()));
        }
    });
    addr
}

async fn answer(mut stream: TcpStream, routes: Routes) {
    let mut request = Vec::new();
    let mut buffer = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16 * 1024 {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
    }
    let request = String::from_utf8_lossy(&request);
    let path = request.split(' ').nth(1).unwrap_or("/").to_owned();
    let head = |status: &str, headers: &str| {
        format!("HTTP/1.1 {status}\r\nConnection: close\r\n{headers}\r\n").into_bytes()
    };
    let response = match routes(&path) {
        Reply::Document { content_type, body } => {
            let mut response = head(
                "200 OK",
                &format!(
                    "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                    body.len()
                ),
            );
            response.extend_from_slice(&body);
            response
        }
        Reply::Redirect(location) => head(
            "302 Found",
            &format!("Location: {location}\r\nContent-Length: 0\r\n"),
        ),
        Reply::Status(code) => head(&format!("{code} Status"), "Content-Length: 0\r\n"),
        Reply::Unsized(body) => {
            let mut response = head("200 OK", "Content-Type: application/pdf\r\n");
            response.extend_from_slice(&body);
            response
        }
        Reply::Declared(length) => head("200 OK", &format!("Content-Length: {length}\r\n")),
        Reply::Trickle => {
            let _ = stream
                .write_all(&head("200 OK", "Content-Type: application/pdf\r\n"))
                .await;
            loop {
                if stream.write_all(b"%").await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        Reply::Silent => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return;
        }
    };
    let _ = stream.write_all(&response).await;
    let _ = stream.shutdown().await;
}
