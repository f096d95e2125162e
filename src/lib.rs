//! lexstack: a self-hosted legal research appliance. One binary serves the
//! public API (`/v1`) and the application API (`/api`) over an embedded
//! redb store. `docs/architecture.md` is the map.

#![forbid(unsafe_code)]

pub mod accounts;
pub mod admin;
pub mod app;
pub mod billing;
pub mod citations;
pub mod cli;
pub mod config;
pub mod context;
pub mod cron;
pub mod documents;
pub mod engine_panics;
pub mod error;
pub mod http;
pub mod ids;
pub mod jobs;
pub mod json;
pub mod library;
pub mod ratelimit;
pub mod review;
pub mod store;
pub mod telemetry;
pub mod verification;
