//! How request bodies read optional fields: `null` is the same as leaving
//! the field out, for every field that may be left out.

use serde::{Deserialize, Deserializer};

/// For `#[serde(default, deserialize_with = "…")]` on a field with a default
/// value: `null` gives the default, as an absent field does.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Body {
        #[serde(default, deserialize_with = "null_as_default")]
        label: String,
        #[serde(default, deserialize_with = "null_as_default")]
        flag: bool,
    }

    #[test]
    fn null_reads_as_an_absent_field() {
        let absent: Body = serde_json::from_str("{}").unwrap();
        let null: Body = serde_json::from_str(r#"{"label": null, "flag": null}"#).unwrap();
        assert_eq!(absent, null);
        assert!(serde_json::from_str::<Body>(r#"{"label": 5}"#).is_err());
    }
}
