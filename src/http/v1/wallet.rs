//! `GET /v1/wallet`: the caller's balance and recent ledger (our extension).

use serde::Serialize;
use warp::reply::Response;

use super::{Endpoint, Outcome, run};
use crate::billing::ledger::LedgerView;
use crate::billing::prices::format_usd;
use crate::context::{Ctx, blocking};
use crate::http::filters::{LimitQuery, RequestMeta, parse_query};
use crate::ratelimit::Bucket;

const ENDPOINT: Endpoint = Endpoint {
    name: "wallet",
    bucket: Bucket::Resolve,
    billed: None,
};
const DEFAULT_LIMIT: usize = 50;
const MAX_LIMIT: usize = 500;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WalletView {
    key_id: String,
    label: String,
    currency: &'static str,
    balance_micro_usd: i64,
    balance_usd: String,
    ledger: Vec<LedgerView>,
}

pub async fn show(ctx: Ctx, meta: RequestMeta) -> Response {
    let query = parse_query::<LimitQuery>(&meta);
    run(ctx.clone(), meta, ENDPOINT, |caller| async move {
        let limit = query?.limit(DEFAULT_LIMIT, MAX_LIMIT);
        let key = caller.key;
        let view = blocking(&ctx, move |ctx| {
            let balance = ctx.billing.balance(&key.id)?.unwrap_or(0);
            let ledger = ctx.billing.recent(&key.id, limit)?;
            Ok(WalletView {
                key_id: key.id,
                label: key.label,
                currency: "USD",
                balance_micro_usd: balance,
                balance_usd: format_usd(balance),
                ledger: ledger.iter().map(LedgerView::from).collect(),
            })
        })
        .await?;
        Ok(Outcome::ok(view))
    })
    .await
}
