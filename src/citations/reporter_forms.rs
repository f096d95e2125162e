//! Case citation forms beyond reporters-db's reporters.json, written in
//! the same template language and tried after an edition's own.

/// A further template of the edition with this canonical abbreviation.
pub(crate) struct ExtraForm {
    pub edition: &'static str,
    pub template: &'static str,
}

pub(crate) const EXTRA_FORMS: &[ExtraForm] = &[ExtraForm {
    // reporters-db reads the nominative reporters that U.S. 1–90 reprint
    // ("5 U.S. (1 Cranch) 137") but not Otto's, the last one, which U.S.
    // 91–107 reprint and opinions still give: "94 U.S. (4 Otto) 113".
    edition: "U.S.",
    template: r"$volume $reporter\s*\((?:(?P<volume_nominative>\d{1,2}) )?(?P<reporter_nominative>[Oo]tto\.?)\) $page",
}];
