//! The playbook schema (`data-schema/playbook.schema.json`) and the shipped
//! playbooks: every playbook satisfies the rules the schema states, and
//! the engine's own validation, which loads them, agrees with the schema on
//! playbooks that break one rule.
//!
//! The schema uses a small part of JSON Schema (type, enum, const, pattern,
//! minLength, minItems, minimum, required, properties,
//! additionalProperties: false, items, oneOf, anyOf, local $ref); the
//! checker below implements that part and refuses any other keyword, so a
//! schema edit that outgrows it fails here rather than passing unchecked.

use serde_json::{Value, json};

use lexstack::review::playbooks::Playbook;

const SCHEMA: &str = include_str!("../../data-schema/playbook.schema.json");
const PLAYBOOKS: [(&str, &str); 6] = [
    (
        "distribution-supply",
        include_str!("../../assets/playbooks/distribution-supply.json"),
    ),
    (
        "general-commercial",
        include_str!("../../assets/playbooks/general-commercial.json"),
    ),
    (
        "license-ip",
        include_str!("../../assets/playbooks/license-ip.json"),
    ),
    (
        "restrictive-covenant",
        include_str!("../../assets/playbooks/restrictive-covenant.json"),
    ),
    (
        "saas-hosting",
        include_str!("../../assets/playbooks/saas-hosting.json"),
    ),
    (
        "services-msa",
        include_str!("../../assets/playbooks/services-msa.json"),
    ),
];

const KNOWN_KEYWORDS: [&str; 20] = [
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "enum",
    "const",
    "pattern",
    "minLength",
    "minItems",
    "minimum",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "oneOf",
    "anyOf",
    "default",
];

/// The first rule `value` breaks, or None when it satisfies `schema`.
fn violation(root: &Value, schema: &Value, value: &Value, at: &str) -> Option<String> {
    let rules = schema.as_object().expect("a schema is an object");
    for keyword in rules.keys() {
        assert!(
            KNOWN_KEYWORDS.contains(&keyword.as_str()),
            "the schema uses {keyword}, which this test does not check"
        );
    }
    if let Some(reference) = rules.get("$ref").and_then(Value::as_str) {
        let name = reference
            .strip_prefix("#/$defs/")
            .expect("only local $defs references");
        return violation(root, &root["$defs"][name], value, at);
    }
    let fail = |rule: &str| Some(format!("{at}: {rule}"));
    if let Some(kind) = rules.get("type").and_then(Value::as_str) {
        let ok = match kind {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            "boolean" => value.is_boolean(),
            other => panic!("type {other} is not checked here"),
        };
        if !ok {
            return fail(&format!("not of type {kind}"));
        }
    }
    if let Some(options) = rules.get("enum").and_then(Value::as_array)
        && !options.contains(value)
    {
        return fail("not one of the allowed values");
    }
    if let Some(expected) = rules.get("const")
        && expected != value
    {
        return fail(&format!("not {expected}"));
    }
    if let (Some(pattern), Some(text)) =
        (rules.get("pattern").and_then(Value::as_str), value.as_str())
        && !regex::Regex::new(pattern).unwrap().is_match(text)
    {
        return fail(&format!("does not match {pattern}"));
    }
    if let (Some(min), Some(text)) = (
        rules.get("minLength").and_then(Value::as_u64),
        value.as_str(),
    ) && (text.chars().count() as u64) < min
    {
        return fail("too short");
    }
    if let (Some(min), Some(number)) =
        (rules.get("minimum").and_then(Value::as_i64), value.as_i64())
        && number < min
    {
        return fail(&format!("below {min}"));
    }
    if let Some(items) = value.as_array() {
        if let Some(min) = rules.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < min
        {
            return fail("too few items");
        }
        if let Some(item_schema) = rules.get("items") {
            for (k, item) in items.iter().enumerate() {
                if let Some(v) = violation(root, item_schema, item, &format!("{at}[{k}]")) {
                    return Some(v);
                }
            }
        }
    }
    if let Some(object) = value.as_object() {
        for name in rules
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap();
            if !object.contains_key(name) {
                return fail(&format!("{name} is required"));
            }
        }
        let properties = rules.get("properties").and_then(Value::as_object);
        for (name, field) in object {
            match properties.and_then(|p| p.get(name)) {
                Some(field_schema) => {
                    if let Some(v) = violation(root, field_schema, field, &format!("{at}.{name}")) {
                        return Some(v);
                    }
                }
                None if rules.get("additionalProperties") == Some(&json!(false)) => {
                    return fail(&format!("{name} is not allowed"));
                }
                None => {}
            }
        }
    }
    if let Some(options) = rules.get("oneOf").and_then(Value::as_array) {
        let passing = options
            .iter()
            .filter(|o| violation(root, o, value, at).is_none())
            .count();
        if passing != 1 {
            return fail(&format!("matches {passing} of the oneOf schemas, not 1"));
        }
    }
    if let Some(options) = rules.get("anyOf").and_then(Value::as_array)
        && options
            .iter()
            .all(|o| violation(root, o, value, at).is_some())
    {
        return fail("matches none of the anyOf schemas");
    }
    None
}

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("the playbook schema is JSON")
}

fn categories(schema: &Value) -> Vec<&str> {
    schema["$defs"]["category"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect()
}

#[test]
fn every_shipped_playbook_satisfies_the_schema_and_the_engine() {
    let schema = schema();
    let categories = categories(&schema);
    assert_eq!(categories.len(), 41, "CUAD has 41 clause categories");
    for (file, json) in PLAYBOOKS {
        let value: Value = serde_json::from_str(json).unwrap();
        assert_eq!(violation(&schema, &schema, &value, file), None);
        let playbook = Playbook::parse(json, &categories).unwrap();
        assert_eq!(playbook.id, file, "a playbook's id is its file name");
    }
    let engine = lexstack::review::Engine::embedded().unwrap();
    assert_eq!(engine.playbooks().len(), PLAYBOOKS.len());
}

/// One way to break a valid playbook.
type Breakage = Box<dyn Fn(&mut Value)>;

#[test]
fn the_schema_and_the_engine_refuse_the_same_broken_playbooks() {
    let schema = schema();
    let categories = categories(&schema);
    let good: Value = serde_json::from_str(PLAYBOOKS[5].1).unwrap();
    let breakages: Vec<(&str, Breakage)> = vec![
        (
            "id with capitals",
            Box::new(|p| p["id"] = json!("Services MSA")),
        ),
        ("blank name", Box::new(|p| p["name"] = json!("  "))),
        (
            "unknown family",
            Box::new(|p| p["contractType"] = json!("cooking")),
        ),
        ("no checks", Box::new(|p| p["checks"] = json!([]))),
        ("extra field", Box::new(|p| p["surprise"] = json!(1))),
        (
            "unknown category",
            Box::new(|p| p["checks"][0]["category"] = json!("Governing Lore")),
        ),
        (
            "unknown kind",
            Box::new(|p| p["checks"][0]["kind"] = json!("clause_maybe")),
        ),
        (
            "blank rule name",
            Box::new(|p| p["checks"][0]["ruleName"] = json!("")),
        ),
        (
            "extra check field",
            Box::new(|p| p["checks"][0]["weight"] = json!(2)),
        ),
        (
            "term limit without bounds",
            Box::new(|p| {
                let check = p["checks"][7].as_object_mut().unwrap();
                check.remove("maxDays");
            }),
        ),
        (
            "negative bound",
            Box::new(|p| p["checks"][7]["maxDays"] = json!(-1)),
        ),
        (
            "unknown term",
            Box::new(|p| p["checks"][7]["term"] = json!("warranty_term")),
        ),
    ];
    for (what, breaks) in breakages {
        let mut playbook = good.clone();
        breaks(&mut playbook);
        assert!(
            violation(&schema, &schema, &playbook, "playbook").is_some(),
            "the schema accepts a playbook with {what}"
        );
        assert!(
            Playbook::parse(&playbook.to_string(), &categories).is_err(),
            "the engine accepts a playbook with {what}"
        );
    }
    // The one rule only the engine checks.
    let mut inverted = good.clone();
    inverted["checks"][7]["minDays"] = json!(120);
    assert_eq!(violation(&schema, &schema, &inverted, "playbook"), None);
    assert!(Playbook::parse(&inverted.to_string(), &categories).is_err());
}
