//! What each billed item costs, in integer micro-USD, and USD text in and out.

use serde::{Deserialize, Serialize};

pub const MICROS_PER_USD: i64 = 1_000_000;

/// The billed items of public-api.md §8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BilledItem {
    CitationsResolve,
    CitationsVerify,
    Answers,
    CaseBrief,
    DocumentsReview,
}

impl BilledItem {
    /// Price of one unit in micro-USD.
    pub fn unit_price_micros(self) -> i64 {
        match self {
            // 15 USD per 1,000 citations.
            BilledItem::CitationsResolve | BilledItem::CitationsVerify => 15_000,
            // 125 USD per 1,000 answers.
            BilledItem::Answers => 125_000,
            // 10 USD per 1,000 briefs.
            BilledItem::CaseBrief => 10_000,
            // 100 USD per 1,000 reviews.
            BilledItem::DocumentsReview => 100_000,
        }
    }

    /// The charge for `units` units; `None` on overflow.
    pub fn charge_micros(self, units: u64) -> Option<i64> {
        i64::try_from(units)
            .ok()?
            .checked_mul(self.unit_price_micros())
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not a USD amount (use digits with at most 6 decimals, e.g. 10 or 12.50)")]
pub struct UsdParseError(pub String);

/// The largest amount one top-up may add: a guard against typos.
pub const MAX_TOPUP_MICROS: i64 = 1_000_000 * MICROS_PER_USD;

/// Parses a non-negative decimal USD amount ("10", "0.015", "12.50") exactly.
pub fn parse_usd(text: &str) -> Result<i64, UsdParseError> {
    let err = || UsdParseError(text.to_string());
    let trimmed = text.trim().trim_start_matches('$');
    let (whole, frac) = trimmed.split_once('.').unwrap_or((trimmed, ""));
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && frac.is_empty()
        || !digits_only(whole)
        || !digits_only(frac)
        || frac.len() > 6
        || whole.len() > 12
    {
        return Err(err());
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| err())?
    };
    let frac_micros: i64 = format!("{frac:0<6}").parse().map_err(|_| err())?;
    whole
        .checked_mul(MICROS_PER_USD)
        .and_then(|w| w.checked_add(frac_micros))
        .ok_or_else(err)
}

/// Formats micro-USD as a decimal USD string with six places ("-0.015000").
pub fn format_usd(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let abs = micros.unsigned_abs();
    let per = MICROS_PER_USD.unsigned_abs();
    format!("{sign}{}.{:06}", abs / per, abs % per)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_exact_amounts() {
        assert_eq!(parse_usd("10"), Ok(10_000_000));
        assert_eq!(parse_usd("0.015"), Ok(15_000));
        assert_eq!(parse_usd("12.5"), Ok(12_500_000));
        assert_eq!(parse_usd(".5"), Ok(500_000));
        assert_eq!(parse_usd("$3"), Ok(3_000_000));
        for bad in [
            "",
            ".",
            "-1",
            "1.0000001",
            "1e3",
            "abc",
            "1.2.3",
            "9999999999999",
        ] {
            assert!(parse_usd(bad).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn formats_signed_amounts() {
        assert_eq!(format_usd(0), "0.000000");
        assert_eq!(format_usd(-15_000), "-0.015000");
        assert_eq!(format_usd(12_345_678), "12.345678");
    }

    #[test]
    fn prices_match_the_spec() {
        assert_eq!(
            BilledItem::CitationsVerify.charge_micros(1000),
            Some(15 * MICROS_PER_USD)
        );
        assert_eq!(
            BilledItem::Answers.charge_micros(1000),
            Some(125 * MICROS_PER_USD)
        );
        assert_eq!(
            BilledItem::CaseBrief.charge_micros(1000),
            Some(10 * MICROS_PER_USD)
        );
        assert_eq!(
            BilledItem::DocumentsReview.charge_micros(1000),
            Some(100 * MICROS_PER_USD)
        );
        assert_eq!(BilledItem::Answers.charge_micros(u64::MAX), None);
    }
}
