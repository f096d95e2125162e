//! The shape of the United States Constitution: which articles and
//! amendments have numbered sections, and how many clauses each part has
//! in the customary numbering, so that a cited section or clause that does
//! not exist is caught.

/// Sections of each article; within each, its clauses. An article without
/// sections (V, VI, VII) has one entry: its clauses.
const ARTICLES: [&[u32]; 7] = [
    &[1, 5, 7, 2, 4, 2, 3, 18, 8, 3],
    &[8, 3, 1, 1],
    &[1, 3, 2],
    &[1, 3, 2, 1],
    &[1],
    &[3],
    &[1],
];

/// Articles written without numbered sections.
const UNSECTIONED_ARTICLES: [u32; 3] = [5, 6, 7];

/// Numbered sections of each amendment; 0 where the text has none.
const AMENDMENT_SECTIONS: [u32; 27] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 2, 0, 0, 3, 0, 6, 3, 2, 2, 2, 4, 2, 0,
];

pub const ARTICLE_COUNT: u32 = ARTICLES.len() as u32;
pub const AMENDMENT_COUNT: u32 = AMENDMENT_SECTIONS.len() as u32;

/// What a section or clause given with an article or amendment comes to.
#[derive(Debug, PartialEq, Eq)]
pub enum Part {
    /// It exists (or none was given).
    Exists,
    /// It cannot exist; the reason says why.
    Missing(String),
    /// Clause numbers of amendments are not held: the library cannot tell.
    Unknown(String),
}

/// Checks `section` and `clause` of article `article` (1-based, in range).
pub fn article_part(article: u32, section: Option<u32>, clause: Option<u32>) -> Part {
    let sections = ARTICLES[(article - 1) as usize];
    let unsectioned = UNSECTIONED_ARTICLES.contains(&article);
    let clauses = match (section, unsectioned) {
        (Some(_), true) => return Part::Missing(format!("article {article} has no sections")),
        (Some(s), false) => match sections.get((s as usize).wrapping_sub(1)) {
            Some(&clauses) => clauses,
            None => {
                return Part::Missing(format!(
                    "article {article} has {} sections, not {s}",
                    sections.len()
                ));
            }
        },
        (None, true) => sections[0],
        (None, false) if clause.is_some() => {
            return Part::Missing(format!(
                "article {article} has sections: a clause is cited within one"
            ));
        }
        (None, false) => return Part::Exists,
    };
    match clause {
        Some(c) if !(1..=clauses).contains(&c) => {
            let place = section.map_or(format!("article {article}"), |s| {
                format!("article {article}, section {s},")
            });
            Part::Missing(format!("{place} has {clauses} clauses, not {c}"))
        }
        _ => Part::Exists,
    }
}

/// Checks `section` and `clause` of amendment `amendment` (1-based, in
/// range).
pub fn amendment_part(amendment: u32, section: Option<u32>, clause: Option<u32>) -> Part {
    let sections = AMENDMENT_SECTIONS[(amendment - 1) as usize];
    if let Some(s) = section {
        if sections == 0 {
            return Part::Missing(format!("amendment {amendment} has no sections"));
        }
        if !(1..=sections).contains(&s) {
            return Part::Missing(format!(
                "amendment {amendment} has {sections} sections, not {s}"
            ));
        }
    }
    match clause {
        Some(c) => Part::Unknown(format!(
            "amendment {amendment} exists, but the library does not hold its clause numbering \
             (clause {c} cannot be checked)"
        )),
        None => Part::Exists,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_clauses_that_exist() {
        assert_eq!(article_part(1, Some(8), Some(18)), Part::Exists);
        assert_eq!(article_part(1, Some(8), Some(3)), Part::Exists);
        assert_eq!(article_part(3, Some(2), Some(1)), Part::Exists);
        assert_eq!(article_part(6, None, Some(2)), Part::Exists);
        assert_eq!(article_part(2, None, None), Part::Exists);
        assert_eq!(amendment_part(14, Some(5), None), Part::Exists);
        assert_eq!(amendment_part(1, None, None), Part::Exists);
    }

    #[test]
    fn sections_and_clauses_that_do_not() {
        assert!(matches!(article_part(7, Some(2), None), Part::Missing(_)));
        assert!(matches!(article_part(3, Some(5), None), Part::Missing(_)));
        assert!(matches!(
            article_part(1, Some(8), Some(99)),
            Part::Missing(_)
        ));
        assert!(matches!(article_part(1, Some(0), None), Part::Missing(_)));
        assert!(matches!(article_part(6, None, Some(4)), Part::Missing(_)));
        assert!(matches!(article_part(1, None, Some(1)), Part::Missing(_)));
        assert!(matches!(
            amendment_part(14, Some(9), None),
            Part::Missing(_)
        ));
        assert!(matches!(amendment_part(1, Some(1), None), Part::Missing(_)));
        assert!(matches!(amendment_part(5, None, Some(3)), Part::Unknown(_)));
    }
}
