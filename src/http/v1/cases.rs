//! `POST /v1/cases/lookup`: a citation or a case id → found / not in
//! library / unresolved. Always 200, never billed.

use serde::Deserialize;
use warp::reply::Response;

use super::{Endpoint, Outcome, run};
use crate::context::{Ctx, blocking};
use crate::error::ApiError;
use crate::http::filters::{Body, RequestMeta, parse_json};
use crate::ratelimit::Bucket;
use crate::verification::{Verifier, lookup};

const LOOKUP: Endpoint = Endpoint {
    name: "cases/lookup",
    bucket: Bucket::Resolve,
    billed: None,
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LookupRequest {
    #[serde(default)]
    citation: Option<String>,
    #[serde(default)]
    case_id: Option<String>,
}

const MAX_LOOKUP_CHARS: usize = 2_000;
/// As `maxLength` in the OpenAPI document: characters, not bytes.
const MAX_CASE_ID_CHARS: usize = 200;

pub async fn lookup(ctx: Ctx, meta: RequestMeta, body: Body) -> Response {
    let request = parse_json::<LookupRequest>(&meta, body);
    run(ctx.clone(), meta, LOOKUP, |_caller| async move {
        let request = request?;
        let result = match (request.citation, request.case_id) {
            (Some(citation), None) if citation.chars().count() <= MAX_LOOKUP_CHARS => {
                blocking(&ctx, move |ctx| {
                    let public_url = ctx.config.public_url();
                    let verifier = Verifier {
                        library: &ctx.library,
                        public_url: &public_url,
                    };
                    Ok(lookup::by_citation(&verifier, &citation)?)
                })
                .await?
            }
            (None, Some(id)) if id.chars().count() <= MAX_CASE_ID_CHARS => {
                blocking(&ctx, move |ctx| Ok(lookup::by_case_id(&ctx.library, &id)?)).await?
            }
            (Some(_), None) | (None, Some(_)) => {
                return Err(ApiError::bad_request(
                    "invalid request body: `citation` or `caseId` is too long",
                ));
            }
            _ => {
                return Err(ApiError::bad_request(
                    "invalid request body: send exactly one of `citation` or `caseId`",
                ));
            }
        };
        Ok(Outcome::ok(result))
    })
    .await
}
