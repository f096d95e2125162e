//! `POST /v1/citations/resolve` and `POST /v1/citations/verify`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::json;
use warp::http::StatusCode;
use warp::reply::Response;

use super::{Billed, Caller, Endpoint, Outcome, run};
use crate::billing::BilledItem;
use crate::context::{AppContext, Ctx, blocking};
use crate::documents::DocumentError;
use crate::error::{ApiError, ErrorCode};
use crate::http::filters::{Body, RequestMeta, parse_json};
use crate::jobs::queue::{self, JobWork};
use crate::jobs::worker::VERIFY_ENDPOINT;
use crate::ratelimit::Bucket;
use crate::verification::{CheckedCitation, Verifier, VerifyReport};

const RESOLVE: Endpoint = Endpoint {
    name: "citations/resolve",
    bucket: Bucket::Resolve,
    billed: Some(Billed {
        item: BilledItem::CitationsResolve,
        most_units: MAX_RESOLVE_ITEMS as u64,
    }),
};
const VERIFY: Endpoint = Endpoint {
    name: VERIFY_ENDPOINT,
    bucket: Bucket::Verify,
    billed: Some(Billed {
        item: BilledItem::CitationsVerify,
        most_units: crate::verification::MAX_CHECKED as u64,
    }),
};

pub const MAX_RESOLVE_ITEMS: usize = 50;
pub const MAX_RESOLVE_CHARS: usize = 2_000;
/// Text up to this many characters is verified inline (public-api.md §8).
pub const MAX_INLINE_CHARS: usize = 100_000;
/// The ceiling for text verified as a job.
pub const MAX_TEXT_CHARS: usize = 500_000;

/// searchMode of resolve (ours to define, public-api.md §4 rule 8). Read
/// from a string, so that another kind of value is told as such ("invalid
/// type: integer `1`, expected a string"), where an enum's own reading
/// says only "expected value".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum SearchMode {
    /// Citations only.
    #[default]
    Exact,
    /// Also a bare case name, looked up by name.
    Lenient,
}

impl TryFrom<String> for SearchMode {
    type Error = String;

    fn try_from(mode: String) -> Result<Self, String> {
        match mode.as_str() {
            "exact" => Ok(SearchMode::Exact),
            "lenient" => Ok(SearchMode::Lenient),
            other => Err(format!(
                "unknown variant `{other}`, expected `exact` or `lenient`"
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ResolveRequest {
    citations: Vec<String>,
    #[serde(default)]
    country: Option<String>,
    #[serde(default, deserialize_with = "crate::json::null_as_default")]
    search_mode: SearchMode,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct VerifyRequest {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    country: Option<String>,
}

#[derive(Serialize)]
struct ResolveData {
    citations: Vec<CheckedCitation>,
}

/// Verify answers with the report, or with the job that will make it.
#[derive(Serialize)]
#[serde(untagged)]
enum VerifyAnswer {
    Report(VerifyReport),
    Queued(serde_json::Value),
}

fn is_us(country: Option<&str>) -> bool {
    country.is_none_or(|c| c.trim().eq_ignore_ascii_case("US"))
}

/// The form under which repeats of one citation count once.
fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

pub async fn resolve(ctx: Ctx, meta: RequestMeta, body: Body) -> Response {
    let request = parse_json::<ResolveRequest>(&meta, body);
    run(ctx.clone(), meta, RESOLVE, |_caller| async move {
        let request = request?;
        validate_resolve(&request)?;
        if !is_us(request.country.as_deref()) {
            // The library holds U.S. law only: nothing can be checked, and
            // nothing is billed.
            let citations = request
                .citations
                .iter()
                .map(|text| not_us(text, request.country.as_deref().unwrap_or("")))
                .collect();
            return Ok(Outcome::ok(ResolveData { citations }));
        }
        let lenient = request.search_mode == SearchMode::Lenient;
        let units = request
            .citations
            .iter()
            .map(|c| normalized(c))
            .collect::<HashSet<_>>()
            .len() as u64;
        let citations = blocking(&ctx, move |ctx| {
            let public_url = ctx.config.public_url();
            let verifier = Verifier {
                library: &ctx.library,
                public_url: &public_url,
            };
            Ok(verifier.resolve(&request.citations, lenient)?)
        })
        .await?;
        Ok(Outcome::billed(ResolveData { citations }, units))
    })
    .await
}

fn validate_resolve(request: &ResolveRequest) -> Result<(), ApiError> {
    let count = request.citations.len();
    if count == 0 || count > MAX_RESOLVE_ITEMS {
        return Err(ApiError::bad_request(format!(
            "invalid field `citations`: must have 1 to {MAX_RESOLVE_ITEMS} items, not {count}"
        )));
    }
    for (i, text) in request.citations.iter().enumerate() {
        let chars = text.chars().count();
        if chars > MAX_RESOLVE_CHARS {
            return Err(ApiError::bad_request(format!(
                "invalid field `citations[{i}]`: {chars} characters, the limit is {MAX_RESOLVE_CHARS}"
            )));
        }
        if text.trim().is_empty() {
            return Err(ApiError::bad_request(format!(
                "invalid field `citations[{i}]`: empty"
            )));
        }
    }
    Ok(())
}

fn not_us(text: &str, country: &str) -> CheckedCitation {
    CheckedCitation::unavailable(
        text.to_string(),
        None,
        match country.trim() {
            "" => "the library holds U.S. law only; citations of other countries cannot be checked"
                .to_string(),
            country => {
                format!("the library holds U.S. law only; {country} citations cannot be checked")
            }
        },
    )
}

pub async fn verify(ctx: Ctx, meta: RequestMeta, body: Body) -> Response {
    let request = parse_json::<VerifyRequest>(&meta, body);
    run(ctx.clone(), meta, VERIFY, |caller| async move {
        let request = request?;
        if !is_us(request.country.as_deref()) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedJurisdiction,
                "verify reads U.S. citations only; send other countries' citations to resolve",
            ));
        }
        match (request.text, request.url) {
            (Some(text), None) => verify_text(&ctx, caller, text).await,
            (None, Some(url)) => verify_url(&ctx, caller, url).await,
            _ => Err(ApiError::bad_request(
                "invalid request body: send exactly one of `text` or `url`",
            )),
        }
    })
    .await
}

async fn verify_text(
    ctx: &Ctx,
    caller: Caller,
    text: String,
) -> Result<Outcome<VerifyAnswer>, ApiError> {
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(ApiError::new(
            ErrorCode::DocumentTooLarge,
            format!("text is {chars} characters; the ceiling is {MAX_TEXT_CHARS}"),
        ));
    }
    if chars > MAX_INLINE_CHARS {
        let work = JobWork::Verify {
            url: None,
            country: "US".into(),
        };
        return submit(ctx, caller, work, Some(text)).await;
    }
    let report = blocking(ctx, move |ctx| {
        let taken = ctx
            .jobs
            .store()
            .read(|txn| queue::request_taken(txn, &caller.key.id, &caller.request_id))?;
        if taken {
            return Err(request_id_taken());
        }
        let public_url = ctx.config.public_url();
        let verifier = Verifier {
            library: &ctx.library,
            public_url: &public_url,
        };
        Ok(verifier.verify_text(&text)?)
    })
    .await?;
    let units = report.units();
    Ok(Outcome::billed(VerifyAnswer::Report(report), units))
}

async fn verify_url(
    ctx: &Ctx,
    caller: Caller,
    url: String,
) -> Result<Outcome<VerifyAnswer>, ApiError> {
    // A name that does not resolve now may resolve later: the job checks
    // again before it fetches, and retries while the service is down.
    match ctx.url_policy.check(&url).await {
        Ok(_) | Err(DocumentError::Unreachable(_)) => {}
        Err(refused) => return Err(refused.into()),
    }
    let work = JobWork::Verify {
        url: Some(url),
        country: "US".into(),
    };
    submit(ctx, caller, work, None).await
}

/// Queues a verify job: 202 with its id. The request id is taken on the
/// endpoint now; the job is billed under it when it completes.
async fn submit(
    ctx: &Ctx,
    caller: Caller,
    work: JobWork,
    input: Option<String>,
) -> Result<Outcome<VerifyAnswer>, ApiError> {
    if !ctx.jobs.settings().enabled {
        return Err(queue_off());
    }
    let job = blocking(ctx, move |ctx: &AppContext| {
        ctx.jobs
            .submit(&caller.key.id, &caller.request_id, work, input.as_deref())?
            .ok_or_else(request_id_taken)
    })
    .await?;
    Ok(Outcome {
        status: StatusCode::ACCEPTED,
        data: VerifyAnswer::Queued(json!({ "jobId": job.id, "status": "queued" })),
        units: 0,
        retry_after_secs: Some(crate::jobs::poll_advice_secs(
            job.created_at,
            job.created_at,
        )),
    })
}

fn request_id_taken() -> ApiError {
    ApiError::new(
        ErrorCode::RequestIdReused,
        "this X-Request-Id already started a job on this endpoint",
    )
}

fn queue_off() -> ApiError {
    ApiError::new(
        ErrorCode::AsyncUnavailable,
        "the job queue is off on this server: send text of at most 100,000 characters",
    )
}
