//! Plain text out of the HTML and XML that opinions come in, for indexing
//! and citation extraction (the stored body keeps the source's markup).

/// Strips tags, turns block ends into line breaks and decodes entities.
/// Linear in the input; never fails on broken markup.
pub fn markup_to_text(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(open) = rest.find('<') {
        push_decoded(&mut out, &rest[..open]);
        let after = &rest[open..];
        let Some(close) = after.find('>') else {
            push_decoded(&mut out, after);
            rest = "";
            break;
        };
        let tag = &after[1..close];
        let name = tag_name(tag);
        if breaks_line(&name) && !out.ends_with('\n') {
            out.push('\n');
        }
        rest = &after[close + 1..];
        // A script's or a style's content is code, not text.
        if !tag.starts_with('/') && matches!(name.as_str(), "script" | "style") {
            rest = after_closing_tag(rest, &name);
        }
    }
    push_decoded(&mut out, rest);
    out
}

/// A tag's element name, in lower case ("p" of "/P class=x").
fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// What follows the tag closing element `name` (in any case), or nothing
/// when it is never closed.
fn after_closing_tag<'a>(markup: &'a str, name: &str) -> &'a str {
    let mut from = 0;
    while let Some(at) = markup[from..].find("</") {
        let start = from + at + 2;
        let named = markup.as_bytes()[start..]
            .get(..name.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(name.as_bytes()));
        if named {
            return markup[start..]
                .find('>')
                .map_or("", |close| &markup[start + close + 1..]);
        }
        from = start;
    }
    ""
}

fn breaks_line(name: &str) -> bool {
    matches!(
        name,
        "p" | "br"
            | "div"
            | "li"
            | "tr"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "blockquote"
            | "section"
            | "article"
            | "center"
            | "opinion"
            | "headnotes"
            | "summary"
            | "parties"
            | "docketnumber"
            | "court"
            | "decisiondate"
            | "author"
            | "attorneys"
            | "footnote"
            | "casebody"
    )
}

/// `text` with its HTML/XML entities decoded: for metadata that sources
/// escape once more than their format needs (Fastcase's "&amp;amp;").
pub fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_decoded(&mut out, text);
    out
}

/// Appends `text` with HTML/XML entities decoded (named, decimal, hex).
fn push_decoded(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let end = after
            .char_indices()
            .take(12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        match end.and_then(|end| decode_entity(&after[1..end]).map(|c| (c, end))) {
            Some((decoded, end)) => {
                out.push(decoded);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
}

fn decode_entity(name: &str) -> Option<char> {
    // "&039;": a decimal entity that lost its '#' (juriscraper's names).
    let lost_hash = name.starts_with('0') && name.bytes().all(|b| b.is_ascii_digit());
    if let Some(number) = name.strip_prefix('#').or(lost_hash.then_some(name)) {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        // A control character ("&#0;", "&00;") is no text: kept as written.
        return char::from_u32(code).filter(|c| !c.is_control() || c.is_whitespace());
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "sect" => '§',
        "para" => '¶',
        "mdash" => '—',
        "ndash" => '–',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "hellip" => '…',
        "copy" => '©',
        _ => return None,
    })
}

/// The page numbers an opinion's text marks where a page of its reporter
/// begins: "*650" standing alone, as CourtListener's star pagination
/// (`<span class="star-pagination">*650</span>`) and plain texts write
/// them. Not a second reporter's "**12", nor a "*" inside a word.
pub fn star_pages(body: &str) -> std::collections::BTreeSet<u32> {
    let bytes = body.as_bytes();
    let mut pages = std::collections::BTreeSet::new();
    for (at, _) in body.match_indices('*') {
        let standalone_before =
            at == 0 || matches!(bytes[at - 1], b'>' | b'[' | b'(' | b' ' | b'\n' | b'\t');
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = at + 1 + digits;
        let standalone_after = bytes
            .get(end)
            .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'*');
        if standalone_before
            && (1..=5).contains(&digits)
            && standalone_after
            && let Ok(page) = body[at + 1..end].parse()
        {
            pages.insert(page);
        }
    }
    pages
}

/// The last page that `body` marks in the form "[698 S.E.2d 425]" for
/// the volume and reporter given (spaces in the mark aside): Fastcase's
/// page marks, which can run past the page range its header states.
pub fn last_bracketed_page(body: &str, volume: &str, reporter: &str) -> Option<u32> {
    let reporter: String = reporter.split_whitespace().collect();
    body.match_indices('[')
        .filter_map(|(at, _)| {
            let close = body.as_bytes()[at + 1..]
                .iter()
                .take(40)
                .position(|&b| b == b']')?;
            let mark = &body[at + 1..at + 1 + close];
            let mut words = mark.split_whitespace();
            let (first, last) = (words.next()?, words.next_back()?);
            let middle: String = words.collect();
            (first == volume && middle == reporter).then(|| last.parse().ok())?
        })
        .max()
}

#[cfg(test)]
mod tests {
    use super::markup_to_text;

    #[test]
    fn bracketed_page_marks_of_one_reporter_volume() {
        let body =
            "x [698 S.E.2d  425] y [698 S.E.2d 431]</p> [153 Conn.App. 999] [698 S.E.2d x] [698";
        assert_eq!(super::last_bracketed_page(body, "698", "S.E.2d"), Some(431));
        assert_eq!(
            super::last_bracketed_page(body, "698", "S. E. 2d"),
            Some(431)
        );
        assert_eq!(super::last_bracketed_page(body, "699", "S.E.2d"), None);
    }

    #[test]
    fn entities_escaped_twice_or_without_their_hash_are_decoded() {
        assert_eq!(
            super::decode_entities(&markup_to_text(
                "Oversight &amp;amp; Mgmt. Hawai&amp;lsquo;i"
            )),
            "Oversight & Mgmt. Hawai‘i"
        );
        assert_eq!(super::decode_entities("O&039;Neal"), "O'Neal");
        assert_eq!(super::decode_entities("AT&T 12&34;"), "AT&T 12&34;");
        assert_eq!(super::decode_entities("a&00;b&#0;c"), "a&00;b&#0;c");
    }

    #[test]
    fn strips_tags_and_decodes_entities() {
        let html =
            "<p>Brown v. Board, 347 U.S. 483 &amp; <i>id.</i> &#167; 1983&#x2014;ok</p><p>next</p>";
        assert_eq!(
            markup_to_text(html),
            "\nBrown v. Board, 347 U.S. 483 & id. § 1983—ok\nnext\n"
        );
    }

    #[test]
    fn star_pages_are_read_where_they_stand_alone() {
        let body = "<span class=\"star-pagination\">*650</span> text [*651] **12 a*652 \
                    *653x (*654) 5 * 6 *655";
        assert_eq!(
            super::star_pages(body).into_iter().collect::<Vec<_>>(),
            [650, 651, 654, 655]
        );
    }

    #[test]
    fn scripts_and_styles_are_not_text() {
        let html = "<p>a</p><SCRIPT type=x>alert(\"</p>\")</Script ><style>p{}</style>b<script>";
        assert_eq!(markup_to_text(html), "\na\nb");
    }

    #[test]
    fn broken_markup_is_kept_as_text() {
        assert_eq!(markup_to_text("a < b & c"), "a < b & c");
        assert_eq!(markup_to_text("x &bogus; y"), "x &bogus; y");
    }
}
