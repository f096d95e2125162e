//! What the extractor returns.

use std::ops::Range;

use serde::Serialize;

use super::laws::LawKey;

/// The kind of a citation, named as in eyecite and the scorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationKind {
    /// "Brown v. Board of Educ., 347 U.S. 483 (1954)"
    FullCase,
    /// "347 U.S. at 495"
    ShortCase,
    /// "Id." and "Ibid."
    Id,
    /// "Brown, supra, at 495"
    Supra,
    /// "Brown at 495", or a later mention of a cited case by its name.
    Reference,
    /// Statutes, regulations, court rules, constitutions.
    Law,
    /// "1 Minn. L. Rev. 1"
    Journal,
    /// A section sign with nothing recognisable around it ("§ 2").
    Unknown,
}

/// Later history of a case cited in the same sentence
/// ("aff'd, 2 F.3d 3", "cert. denied, 510 U.S. 1").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubsequentHistory {
    /// The phrase as written, e.g. `"aff'd"`, `"cert. denied"`.
    pub phrase: String,
    /// Index of the citation it introduces, when there is one.
    pub citation: Option<usize>,
}

/// One citation found in a document. Offsets are byte offsets into the
/// text given to [`super::Extractor::extract`], always on char boundaries;
/// see [`super::CodePoints`] for code-point offsets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Citation {
    pub kind: CitationKind,
    /// The citation proper: "347 U.S. 483", "Id. at 5", "42 U.S.C. § 1983".
    pub span: Range<usize>,
    /// From the case name (or antecedent) through the last parenthetical.
    pub full_span: Range<usize>,
    pub volume: Option<String>,
    /// Canonical abbreviation: the reporter edition ("F.3d"), law key
    /// ("U.S.C.") or journal ("Minn. L. Rev."). `None` when the text names a
    /// reporter abbreviation that stands for several and nothing tells
    /// which.
    pub reporter: Option<&'static str>,
    /// The reporter as written ("F. 3d").
    pub reporter_found: Option<String>,
    /// First page; `None` for a blank ("___") or a law with no page.
    pub page: Option<String>,
    /// Pin cite as written, without the leading comma ("495-496", "at 5",
    /// "(a)(2)" for laws).
    pub pin_cite: Option<String>,
    pub year: Option<i32>,
    /// A law's publisher or supplement, as its date parenthetical gives it
    /// ("West", "Supp. V", "Lexis Supp.").
    pub publisher: Option<String>,
    /// The supplement a law's main volume is cited with, as written
    /// ("Supp. V 2023" in "(2018 & Supp. V 2023)").
    pub supplement: Option<String>,
    /// courts-db id ("ca9", "scotus"), from the parenthetical or the
    /// reporter.
    pub court: Option<&'static str>,
    /// The court as written in the parenthetical ("9th Cir.").
    pub court_found: Option<String>,
    /// The first explanatory parenthetical, without its parentheses.
    pub parenthetical: Option<String>,
    /// The first party as written ("Brown"). For a short form, the
    /// parties of the full citation it resolves to; for a reference, the
    /// party name it repeats.
    pub plaintiff: Option<String>,
    /// The second party as written ("Board of Educ."). A name without
    /// "v." is reported whole as the defendant ("In re Smith" gives
    /// "Smith"; "See Smith, 1 F.3d 2" gives "Smith"), as eyecite does.
    pub defendant: Option<String>,
    /// The case name as written before the citation ("Brown v. Board of
    /// Educ."); for short forms and supra, the name they refer back with.
    pub case_name: Option<String>,
    pub subsequent_history: Vec<SubsequentHistory>,
    /// The typed key of a law citation.
    pub law: Option<Box<LawKey>>,
    /// Index (in the same list) of the full citation this one stands for.
    /// A full citation points at the first full citation of the same
    /// volume, reporter and page (often itself). `None` when unresolved.
    pub resolves_to: Option<usize>,
    /// Indexes of the other citations of the same case given in parallel
    /// ("347 U.S. 483, 74 S. Ct. 686").
    pub parallel: Vec<usize>,
    /// Every reporter edition the abbreviation could stand for, when
    /// `reporter` is `None` because of that ambiguity.
    pub reporter_candidates: Vec<&'static str>,
}

impl Citation {
    pub(crate) fn new(kind: CitationKind, span: Range<usize>) -> Citation {
        Citation {
            kind,
            full_span: span.clone(),
            span,
            volume: None,
            reporter: None,
            reporter_found: None,
            page: None,
            pin_cite: None,
            year: None,
            publisher: None,
            supplement: None,
            court: None,
            court_found: None,
            parenthetical: None,
            plaintiff: None,
            defendant: None,
            case_name: None,
            subsequent_history: Vec::new(),
            law: None,
            resolves_to: None,
            parallel: Vec::new(),
            reporter_candidates: Vec::new(),
        }
    }

    /// The citation text as written.
    pub fn text<'t>(&self, document: &'t str) -> &'t str {
        document.get(self.span.clone()).unwrap_or("")
    }

    /// Whether this is a full citation (case, law or journal).
    pub fn is_full(&self) -> bool {
        matches!(
            self.kind,
            CitationKind::FullCase | CitationKind::Law | CitationKind::Journal
        )
    }
}
