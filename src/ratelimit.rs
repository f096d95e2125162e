//! Token buckets per (API key, bucket), in memory.
//!
//! A bucket holds up to `burst` tokens and refills at `per_minute` tokens a
//! minute; each request takes one. Limits restart with the process, which is
//! what a single-machine appliance needs.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// The rate-limit buckets of the public API (public-api.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Resolve, case lookup, library reads and the wallet read.
    Resolve,
    Verify,
    Answers,
    Review,
    /// Job polling, separate from the rest.
    Jobs,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BucketLimit {
    /// Sustained rate; 0 turns the limit off.
    pub per_minute: u32,
    /// How many requests may arrive at once after a quiet spell.
    pub burst: u32,
}

impl BucketLimit {
    const fn new(per_minute: u32, burst: u32) -> Self {
        Self { per_minute, burst }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimits {
    pub resolve: BucketLimit,
    pub verify: BucketLimit,
    pub answers: BucketLimit,
    pub review: BucketLimit,
    pub jobs: BucketLimit,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            resolve: BucketLimit::new(1200, 300),
            verify: BucketLimit::new(120, 30),
            answers: BucketLimit::new(60, 10),
            review: BucketLimit::new(60, 10),
            jobs: BucketLimit::new(600, 600),
        }
    }
}

impl RateLimits {
    pub fn get(&self, bucket: Bucket) -> BucketLimit {
        match bucket {
            Bucket::Resolve => self.resolve,
            Bucket::Verify => self.verify,
            Bucket::Answers => self.answers,
            Bucket::Review => self.review,
            Bucket::Jobs => self.jobs,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let all = [
            ("resolve", self.resolve),
            ("verify", self.verify),
            ("answers", self.answers),
            ("review", self.review),
            ("jobs", self.jobs),
        ];
        for (name, limit) in all {
            if limit.per_minute > 0 && limit.burst == 0 {
                return Err(format!("rate_limits.{name}.burst must be at least 1"));
            }
        }
        Ok(())
    }
}

#[derive(Debug)]
struct TokenBucket {
    tokens: f64,
    updated: Instant,
}

pub struct RateLimiter {
    limits: RateLimits,
    buckets: Mutex<HashMap<(String, Bucket), TokenBucket>>,
}

impl RateLimiter {
    pub fn new(limits: RateLimits) -> Self {
        Self {
            limits,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token, or says how many whole seconds until one is there.
    pub fn check(&self, key_id: &str, bucket: Bucket) -> Result<(), u64> {
        self.check_at(key_id, bucket, Instant::now())
    }

    fn check_at(&self, key_id: &str, bucket: Bucket, now: Instant) -> Result<(), u64> {
        let limit = self.limits.get(bucket);
        if limit.per_minute == 0 {
            return Ok(());
        }
        let refill_per_sec = f64::from(limit.per_minute) / 60.0;
        let capacity = f64::from(limit.burst);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let state = buckets
            .entry((key_id.to_string(), bucket))
            .or_insert(TokenBucket {
                tokens: capacity,
                updated: now,
            });
        let elapsed = now.saturating_duration_since(state.updated).as_secs_f64();
        state.tokens = (state.tokens + elapsed * refill_per_sec).min(capacity);
        state.updated = now;
        if state.tokens >= 1.0 {
            state.tokens -= 1.0;
            return Ok(());
        }
        let wait = (1.0 - state.tokens) / refill_per_sec;
        Err(wait.ceil().max(1.0) as u64)
    }

    /// Forgets buckets that have been idle long enough to be full again.
    pub fn sweep(&self) -> usize {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let before = buckets.len();
        buckets.retain(|(_, bucket), state| {
            let limit = self.limits.get(*bucket);
            let refill = Duration::from_secs_f64(
                f64::from(limit.burst) * 60.0 / f64::from(limit.per_minute.max(1)),
            );
            now.saturating_duration_since(state.updated) < refill
        });
        before - buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_minute: u32, burst: u32) -> RateLimiter {
        RateLimiter::new(RateLimits {
            verify: BucketLimit::new(per_minute, burst),
            ..RateLimits::default()
        })
    }

    #[test]
    fn burst_then_refill() {
        let limiter = limiter(60, 2);
        let t0 = Instant::now();
        assert!(limiter.check_at("k", Bucket::Verify, t0).is_ok());
        assert!(limiter.check_at("k", Bucket::Verify, t0).is_ok());
        assert_eq!(limiter.check_at("k", Bucket::Verify, t0), Err(1));
        assert!(
            limiter
                .check_at("k", Bucket::Verify, t0 + Duration::from_secs(1))
                .is_ok()
        );
    }

    #[test]
    fn keys_and_buckets_are_separate() {
        let limiter = limiter(60, 1);
        let t0 = Instant::now();
        assert!(limiter.check_at("a", Bucket::Verify, t0).is_ok());
        assert!(limiter.check_at("b", Bucket::Verify, t0).is_ok());
        assert!(limiter.check_at("a", Bucket::Resolve, t0).is_ok());
        assert!(limiter.check_at("a", Bucket::Verify, t0).is_err());
    }

    #[test]
    fn zero_per_minute_is_unlimited() {
        let limiter = limiter(0, 0);
        for _ in 0..1000 {
            assert!(limiter.check("k", Bucket::Verify).is_ok());
        }
    }

    #[test]
    fn retry_after_rounds_up() {
        let limiter = limiter(6, 1);
        let t0 = Instant::now();
        limiter.check_at("k", Bucket::Verify, t0).unwrap();
        assert_eq!(limiter.check_at("k", Bucket::Verify, t0), Err(10));
    }
}
