//! The appliance's own page of a case (`/library/cases/{caseId}`), the
//! link verify gives when a case has no external source. Everything from
//! the library is escaped; opinion HTML is shown as its text.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::filters::{RequestMeta, meta, with_ctx};
use super::reply;
use crate::citations::courts;
use crate::context::{Ctx, blocking};
use crate::error::ApiError;
use crate::library::model::{BodyFormat, CaseRecord};
use crate::library::{store, text::markup_to_text};

pub fn handlers(ctx: Ctx) -> BoxedFilter<(Response,)> {
    warp::path!("library" / "cases" / String)
        .and(warp::get())
        .and(with_ctx(ctx))
        .and(meta())
        .then(case_page)
        .boxed()
}

async fn case_page(case_id: String, ctx: Ctx, meta: RequestMeta) -> Response {
    let found = blocking(&ctx, move |ctx| {
        let store = &ctx.library.store;
        let Some(case) = store.read(|txn| store::case(txn, &case_id))? else {
            return Ok(None);
        };
        let mut opinions = Vec::new();
        for opinion in &case.opinions {
            if let Some(text) =
                store.read(|txn| store::opinion_text(txn, &case.id, opinion.number))?
            {
                let text = match opinion.format {
                    BodyFormat::Html => markup_to_text(&text),
                    BodyFormat::Markdown | BodyFormat::Text => text,
                };
                opinions.push((opinion.kind.clone(), text));
            }
        }
        Ok(Some((case, opinions)))
    })
    .await;
    match found {
        Ok(Some((case, opinions))) => reply::bytes(
            StatusCode::OK,
            "text/html; charset=utf-8",
            render(&case, &opinions).into_bytes(),
            &meta.echo_request_id(),
        ),
        Ok(None) => reply::error(
            &ApiError::not_found("no such case in the library"),
            &meta.echo_request_id(),
        ),
        Err(err) => reply::error(&err, &meta.echo_request_id()),
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn render(case: &CaseRecord, opinions: &[(String, String)]) -> String {
    // A reporter's short name heads the page; CAP's full name lists every
    // party with its role.
    let name = match case.name_abbreviation.as_deref().filter(|n| !n.is_empty()) {
        Some(short) => short,
        None if case.name.is_empty() => "(name not held)",
        None => &case.name,
    };
    let citations: Vec<String> = case.citations.iter().map(|c| escape(&c.cite)).collect();
    let court = case
        .court
        .as_deref()
        .map(|id| match courts::court_by_id(id) {
            Some(court) => format!("{} ({id})", court.name),
            None => id.to_string(),
        });
    let mut html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <h1>{title}</h1><p>{citations}</p><p>{court} {date}</p>",
        title = escape(name),
        citations = citations.join("; "),
        court = escape(court.as_deref().unwrap_or("")),
        date = escape(case.decision_date.as_deref().unwrap_or("")),
    );
    if name != case.name && !case.name.is_empty() {
        html.push_str(&format!("<p>Full name: {}</p>", escape(&case.name)));
    }
    if let Some(url) = &case.source_url {
        html.push_str(&format!("<p>Source: {}</p>", escape(url)));
    }
    let facts = [
        ("Docket", Some(case.docket_numbers.join("; "))),
        ("Judges", case.judges.clone()),
        ("Status", case.precedential_status.clone()),
    ];
    for (label, value) in facts {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            html.push_str(&format!("<p>{label}: {}</p>", escape(&value)));
        }
    }
    // The head matter of a reporter (and some courts' orders) holds what
    // the court ruled; the syllabus sums it up.
    let preambles = [
        ("Head matter", &case.head_matter),
        ("Syllabus", &case.syllabus),
    ];
    for (label, text) in preambles {
        if let Some(text) = text.as_deref().filter(|t| !t.trim().is_empty()) {
            html.push_str(&format!(
                "<h2>{label}</h2><pre style=\"white-space:pre-wrap\">{}</pre>",
                escape(text)
            ));
        }
    }
    for (kind, text) in opinions {
        html.push_str(&format!(
            "<h2>{}</h2><pre style=\"white-space:pre-wrap\">{}</pre>",
            escape(kind),
            escape(text)
        ));
    }
    if opinions.is_empty() {
        html.push_str("<p>The library holds no text of this decision.</p>");
    }
    html.push_str("</body></html>");
    html
}
