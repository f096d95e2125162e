//! reporters-db citation templates: `$variable` expansion (regexes.json) and
//! the split of each template around its reporter.
//!
//! A template such as `$volume $reporter,? $page` becomes a *prefix* matched
//! backward from the reporter's first byte and a *suffix* matched forward
//! from its last, so a template only ever runs where the scanner found a
//! reporter string.

use std::collections::HashMap;

use serde_json::Value;

use super::pattern::{self, Direction, Node, Program};

/// Page numbers written in Roman numerals or as blanks (`___`) for
/// citations to pages not yet assigned; eyecite accepts both for the
/// standard template, and so do we. Roman pages are checked in code.
const PAGE_PATTERN: &str = r"(?P<page>\d+|[ivxlc]{1,8}|_+)";

/// Statute sections: reporters-db's pattern, also with en dashes and
/// letter suffixes ("22–2501", "32-1a"), which real opinions use, and the
/// hyphens word processors and PDFs put in their place (see
/// [`crate::citations::laws::HYPHENS`]): a number cut at one would be
/// another, shorter section.
const LAW_SECTION_PATTERN: &str = concat!(
    r"(?P<section>(?:\d+[A-Za-z]{0,3}(?:[-­‐‑‒−﹣－–—.:]\d+[A-Za-z]{0,3}){0,4})",
    r"|(?:\d+(?:\((?:[a-zA-Z]{1}|\d{1,2})\))+))"
);

/// Illinois neutral citations: reporters-db's pattern, with the whole
/// suffix of a Rule 23 order's number kept ("130875-U", and "160592-UB",
/// "-UC" for the order as modified), and of a workers' compensation
/// commission division order ("150284WC-U"). Cut at its first letter, a
/// modified order's number would name the published opinion, so the "-U"
/// is also read as briefs mistype it: another dash, an underscore, a space
/// before it, lower case.
const ILLINOIS_NEUTRAL_PATTERN: &str =
    r"$volume_year $reporter (?P<page>\d{1,7}(?:WC)?(?:-[A-Z]{1,2}|\s?[-‐‑–—_][Uu][BbCc]?)?)";

/// Page forms reporters-db writes more strictly than documents do, and the
/// form read instead: New York's unreported slip opinions, "51234(U)", are
/// also written "51234 (U)" and "51234(u)".
const LOOSER_PAGES: [(&str, &str); 1] = [(
    r"(?P<page>\d+[\[(]U[)\]])",
    r"(?P<page>\d+\s?[\[(][Uu][)\]])",
)];

/// Inserted before the page of a template to read its short form
/// ("347 U.S. at 495", "174 Cal.App.2d at p. 651").
const SHORT_FORM_MARKER: &str = r"at\s?(?:p(?:\.|age)?)? ";

/// The expanded variables of regexes.json.
pub(crate) struct Variables {
    values: HashMap<String, String>,
}

impl Variables {
    /// Flattens regexes.json the way reporters-db does: nested keys joined
    /// with `_`, `""` naming the parent, keys ending in `#` dropped, and an
    /// `_optional` variant of every variable.
    pub fn from_json(json: &Value) -> Variables {
        let mut flat = HashMap::new();
        flatten(json, "", &mut flat);
        flat.insert("page".to_string(), PAGE_PATTERN.to_string());
        flat.insert("law_section".to_string(), LAW_SECTION_PATTERN.to_string());
        flat.insert(
            "full_cite_illinois_neutral".to_string(),
            ILLINOIS_NEUTRAL_PATTERN.to_string(),
        );
        let optional: Vec<(String, String)> = flat
            .iter()
            .map(|(k, v)| (format!("{k}_optional"), format!("(?:{v} ?)?")))
            .collect();
        flat.extend(optional);
        let mut values = HashMap::new();
        for key in flat.keys() {
            values.insert(key.clone(), substitute(&flat[key], &flat));
        }
        Variables { values }
    }

    /// Expands every `$variable` in `template`; unknown names (such as
    /// `$edition`) are kept.
    pub fn expand(&self, template: &str) -> String {
        substitute(template, &self.values)
    }
}

fn flatten(value: &Value, parent: &str, out: &mut HashMap<String, String>) {
    let Value::Object(map) = value else { return };
    for (key, child) in map {
        if key.ends_with('#') {
            continue;
        }
        let name = match (parent.is_empty(), key.is_empty()) {
            (true, _) => key.clone(),
            (false, true) => parent.to_string(),
            (false, false) => format!("{parent}_{key}"),
        };
        match child {
            Value::String(s) => {
                out.insert(name, s.clone());
            }
            Value::Object(_) => flatten(child, &name, out),
            _ => {}
        }
    }
}

/// Python `string.Template.safe_substitute`, repeated until nothing
/// changes (values refer to other variables).
fn substitute(template: &str, values: &HashMap<String, String>) -> String {
    let mut current = template.to_string();
    for _ in 0..32 {
        let next = substitute_once(&current, values);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

fn substitute_once(template: &str, values: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let (name, consumed) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(close) => (&inner[..close], close + 2),
                None => ("", 0),
            }
        } else {
            let len = after
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let starts_ok = after
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
            if starts_ok {
                (&after[..len], len)
            } else {
                ("", 0)
            }
        };
        match values.get(name) {
            Some(value) if consumed > 0 => {
                out.push_str(value);
                rest = &after[consumed..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the scanner must find for a template to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The edition, law or journal strings themselves (`$edition`).
    Edition,
    /// A fixed text that starts the reporter group, for reporters whose name
    /// has a variable part ("Cal. $law_subject Code"); the rest of the name
    /// is captured as `reporter_tail`.
    Literal(String),
}

/// One template, compiled around its reporter.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub trigger: Trigger,
    /// Read backward from the reporter; `None` when nothing precedes it.
    pub prefix: Option<Program>,
    pub suffix: Program,
    /// The suffix with "at" before the page, when the page is in the suffix.
    pub short_suffix: Option<Program>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TemplateError {
    pub source: String,
    pub reason: String,
}

/// Expands and compiles `source` (a reporters-db template).
pub(crate) fn compile(source: &str, variables: &Variables) -> Result<Template, TemplateError> {
    let fail = |reason: String| TemplateError {
        source: source.to_string(),
        reason,
    };
    let mut expanded = variables.expand(source);
    for (strict, loose) in LOOSER_PAGES {
        expanded = expanded.replace(strict, loose);
    }
    let node = pattern::parse(&expanded).map_err(|e| fail(e.to_string()))?;
    let items = match node {
        Node::Concat(items) => items,
        other => vec![other],
    };
    let at = items
        .iter()
        .position(|item| matches!(item, Node::Group { name: Some(n), .. } if n == "reporter"))
        .ok_or_else(|| fail("no reporter group at the top level".into()))?;
    let Node::Group { node: reporter, .. } = &items[at] else {
        return Err(fail("no reporter group".into()));
    };
    let mut suffix_items: Vec<Node> = Vec::new();
    let trigger = match reporter.as_ref() {
        Node::Edition => Trigger::Edition,
        Node::Char(c) => Trigger::Literal(c.to_string()),
        Node::Concat(parts) => {
            let literal: String = parts
                .iter()
                .map_while(|p| match p {
                    Node::Char(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let used = literal.chars().count();
            if used < parts.len() {
                suffix_items.push(Node::Group {
                    name: Some("reporter_tail".into()),
                    node: Box::new(Node::Concat(parts[used..].to_vec())),
                });
            }
            Trigger::Literal(literal)
        }
        _ => return Err(fail("reporter pattern starts with no fixed text".into())),
    };
    if let Trigger::Literal(literal) = &trigger
        && literal.trim().len() < 2
    {
        return Err(fail(
            "reporter pattern starts with no usable fixed text".into(),
        ));
    }
    suffix_items.extend(items[at + 1..].iter().cloned());
    let prefix_node = Node::Concat(items[..at].to_vec());
    let suffix_node = Node::Concat(suffix_items);
    if contains_edition(&prefix_node) || contains_edition(&suffix_node) {
        return Err(fail("$edition outside the reporter group".into()));
    }
    let prefix = (at > 0).then(|| Program::compile(&prefix_node, Direction::Backward));
    let suffix = Program::compile(&suffix_node, Direction::Forward);
    let marker = pattern::parse(SHORT_FORM_MARKER).expect("short form marker parses");
    let short_suffix = with_marker_before_page(&suffix_node, &marker)
        .map(|node| Program::compile(&node, Direction::Forward));
    Ok(Template {
        trigger,
        prefix,
        suffix,
        short_suffix,
    })
}

fn contains_edition(node: &Node) -> bool {
    match node {
        Node::Edition => true,
        Node::Group { node, .. } | Node::Repeat { node, .. } => contains_edition(node),
        Node::Concat(items) | Node::Alt(items) => items.iter().any(contains_edition),
        _ => false,
    }
}

/// A copy of `node` with `marker` placed before its `page` group, or `None`
/// if it has no page group.
fn with_marker_before_page(node: &Node, marker: &Node) -> Option<Node> {
    match node {
        Node::Group { name: Some(n), .. } if n == "page" => {
            Some(Node::Concat(vec![marker.clone(), node.clone()]))
        }
        Node::Group { name, node: inner } => {
            with_marker_before_page(inner, marker).map(|inner| Node::Group {
                name: name.clone(),
                node: Box::new(inner),
            })
        }
        Node::Repeat {
            node: inner,
            min,
            max,
            greedy,
        } => with_marker_before_page(inner, marker).map(|inner| Node::Repeat {
            node: Box::new(inner),
            min: *min,
            max: *max,
            greedy: *greedy,
        }),
        Node::Concat(items) | Node::Alt(items) => {
            let index = items
                .iter()
                .position(|item| with_marker_before_page(item, marker).is_some())?;
            let mut copy = items.clone();
            copy[index] = with_marker_before_page(&items[index], marker)?;
            Some(match node {
                Node::Concat(_) => Node::Concat(copy),
                _ => Node::Alt(copy),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::citations::pattern::Backtrack;

    fn variables() -> Variables {
        Variables::from_json(&serde_json::json!({
            "full_cite": {"": "$volume $reporter,? $page", "year_page": "$reporter $volume_year-$page"},
            "volume": {"": r"(?P<volume>[1-9]\d*)", "year": r"(?P<volume>1[789]\d{2}|20\d{2})"},
            "page": {"": r"(?P<page>\d+)", "#": "comment"},
            "reporter": {"": "(?P<reporter>$edition)"},
            "paragraph_marker": r"(?:P|¶)"
        }))
    }

    #[test]
    fn expands_nested_optional_and_unknown_variables() {
        let v = variables();
        assert_eq!(v.expand("$paragraph_marker_optional"), "(?:(?:P|¶) ?)?");
        assert_eq!(
            v.expand("$full_cite"),
            format!(r"(?P<volume>[1-9]\d*) (?P<reporter>$edition),? {PAGE_PATTERN}")
        );
        assert_eq!(v.expand("$nothing $$"), "$nothing $$");
    }

    #[test]
    fn splits_around_the_reporter_and_derives_the_short_form() {
        let t = compile("$full_cite", &variables()).unwrap();
        assert_eq!(t.trigger, Trigger::Edition);
        let text = "see 347 U.S., at 495";
        let prefix = t.prefix.as_ref().unwrap();
        let mut bt = Backtrack::default();
        assert_eq!(prefix.run(text, 8, &mut bt, &|_| true), Some(4));
        let short = t.short_suffix.as_ref().unwrap();
        assert_eq!(short.run(text, 12, &mut bt, &|_| true), Some(text.len()));
        assert!(t.suffix.run(text, 12, &mut bt, &|_| true).is_none());
    }

    #[test]
    fn literal_reporters_become_triggers() {
        let t = compile(
            r"(?P<reporter>Cal\. (?P<subject>[A-Z][a-z]+\.) Code) § (?P<section>\d+)",
            &variables(),
        )
        .unwrap();
        assert_eq!(t.trigger, Trigger::Literal("Cal.".into()));
        assert!(t.prefix.is_none());
        let text = "Cal. Lab. Code § 12";
        let mut bt = Backtrack::default();
        assert_eq!(t.suffix.run(text, 4, &mut bt, &|_| true), Some(text.len()));
    }

    #[test]
    fn rejects_templates_without_a_reporter() {
        assert!(compile(r"(?P<volume>\d+) x", &variables()).is_err());
    }
}
