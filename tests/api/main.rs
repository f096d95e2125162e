//! One test binary, one module per feature; every test talks HTTP to a real
//! server (or runs the real binary) over a real store in a temp directory.

mod accounts;
mod api_keys;
mod billing;
mod citations;
mod cli;
mod connections;
mod crash;
mod documents;
mod envelope;
mod health;
mod helpers;
mod honesty;
mod import;
mod jobs;
mod library;
mod openapi;
mod playbooks;
mod rate_limits;
mod review;
mod wallet;
