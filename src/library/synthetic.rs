//! Synthetic CourtListener bulk files in the exact format of the real dump
//! (Postgres CSV, every value quoted, backslash escapes, NULL unquoted
//! empty, the real column lists), for scale tests and benchmarks.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Courts the synthetic clusters belong to, with reporters to cite them in.
const COURTS: &[(&str, &str, &str)] = &[
    ("scotus", "Supreme Court of the United States", "U.S."),
    ("ca1", "Court of Appeals for the First Circuit", "F.3d"),
    ("ca2", "Court of Appeals for the Second Circuit", "F.3d"),
    ("ca9", "Court of Appeals for the Ninth Circuit", "F.4th"),
    ("cadc", "Court of Appeals for the D.C. Circuit", "F.3d"),
    ("nysd", "District Court, S.D. New York", "F. Supp. 3d"),
    ("cal", "California Supreme Court", "Cal. 5th"),
    ("tex", "Texas Supreme Court", "S.W.3d"),
    ("ill", "Illinois Supreme Court", "N.E.3d"),
    ("nm", "New Mexico Supreme Court", "P.3d"),
];

pub const SURNAMES: &[&str] = &[
    "Abbott",
    "Baker",
    "Carter",
    "Delgado",
    "Ellis",
    "Fischer",
    "Garcia",
    "Hughes",
    "Ibarra",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreno",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quinn",
    "Rossi",
    "Sato",
    "Thompson",
    "Underwood",
    "Valdez",
    "Whitfield",
    "Xu",
    "Young",
    "Zimmerman",
];

const WORDS: &[&str] = &[
    "the",
    "court",
    "held",
    "that",
    "petitioner",
    "respondent",
    "statute",
    "contract",
    "evidence",
    "appeal",
    "judgment",
    "reversed",
    "affirmed",
    "jurisdiction",
    "motion",
    "claim",
    "damages",
    "district",
    "trial",
    "jury",
    "record",
    "standard",
    "review",
    "de",
    "novo",
    "discretion",
    "error",
    "harmless",
    "rule",
    "party",
];

/// A small deterministic generator (xorshift), so runs are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// What was written.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Generated {
    pub clusters: u64,
    pub opinions: u64,
    pub citations: u64,
    pub citation_map: u64,
    pub files: Vec<PathBuf>,
}

/// One cluster's citation: (volume, reporter, page).
pub fn citation_of(cluster: u64, second: bool) -> (u64, &'static str, u64) {
    let court = COURTS[(cluster % COURTS.len() as u64) as usize];
    let reporter = if second { "L. Ed. 2d" } else { court.2 };
    let volume = 1 + cluster / 400;
    let page = 1 + (cluster % 400) * 7;
    (volume, reporter, page)
}

fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn row(writer: &mut impl Write, fields: &[Option<String>]) -> std::io::Result<()> {
    let line: Vec<String> = fields
        .iter()
        .map(|f| f.as_deref().map(quote).unwrap_or_default())
        .collect();
    writer.write_all(line.join(",").as_bytes())?;
    writer.write_all(b"\n")
}

fn header(writer: &mut impl Write, columns: &[&str]) -> std::io::Result<()> {
    let owned: Vec<Option<String>> = columns.iter().map(|c| Some(c.to_string())).collect();
    row(writer, &owned)
}

fn create(dir: &Path, name: &str, files: &mut Vec<PathBuf>) -> std::io::Result<BufWriter<File>> {
    let path = dir.join(name);
    files.push(path.clone());
    Ok(BufWriter::with_capacity(1 << 20, File::create(path)?))
}

pub const COURT_COLUMNS: &[&str] = &[
    "id",
    "pacer_court_id",
    "pacer_has_rss_feed",
    "pacer_rss_entry_types",
    "date_last_pacer_contact",
    "fjc_court_id",
    "date_modified",
    "in_use",
    "has_opinion_scraper",
    "has_oral_argument_scraper",
    "position",
    "citation_string",
    "short_name",
    "full_name",
    "url",
    "start_date",
    "end_date",
    "jurisdiction",
    "notes",
    "parent_court_id",
];
pub const DOCKET_COLUMNS: &[&str] = &[
    "id",
    "date_created",
    "date_modified",
    "source",
    "appeal_from_str",
    "assigned_to_str",
    "referred_to_str",
    "panel_str",
    "date_last_index",
    "date_cert_granted",
    "date_cert_denied",
    "date_argued",
    "date_reargued",
    "date_reargument_denied",
    "date_filed",
    "date_terminated",
    "date_last_filing",
    "case_name_short",
    "case_name",
    "case_name_full",
    "slug",
    "docket_number",
    "docket_number_core",
    "pacer_case_id",
    "cause",
    "nature_of_suit",
    "jury_demand",
    "jurisdiction_type",
    "appellate_fee_status",
    "appellate_case_type_information",
    "mdl_status",
    "filepath_local",
    "filepath_ia",
    "filepath_ia_json",
    "ia_upload_failure_count",
    "ia_needs_upload",
    "ia_date_first_change",
    "view_count",
    "date_blocked",
    "blocked",
    "appeal_from_id",
    "assigned_to_id",
    "court_id",
    "idb_data_id",
    "originating_court_information_id",
    "referred_to_id",
    "federal_dn_case_type",
    "federal_dn_office_code",
    "federal_dn_judge_initials_assigned",
    "federal_dn_judge_initials_referred",
    "federal_defendant_number",
    "parent_docket_id",
    "docket_number_raw",
    "docket_number_source",
];
pub const CLUSTER_COLUMNS: &[&str] = &[
    "id",
    "date_created",
    "date_modified",
    "judges",
    "date_filed",
    "date_filed_is_approximate",
    "slug",
    "case_name_short",
    "case_name",
    "case_name_full",
    "scdb_id",
    "scdb_decision_direction",
    "scdb_votes_majority",
    "scdb_votes_minority",
    "source",
    "procedural_history",
    "attorneys",
    "nature_of_suit",
    "posture",
    "syllabus",
    "headnotes",
    "summary",
    "disposition",
    "history",
    "other_dates",
    "cross_reference",
    "correction",
    "citation_count",
    "precedential_status",
    "date_blocked",
    "blocked",
    "filepath_json_harvard",
    "filepath_pdf_harvard",
    "docket_id",
    "arguments",
    "headmatter",
];
pub const OPINION_COLUMNS: &[&str] = &[
    "id",
    "date_created",
    "date_modified",
    "author_str",
    "per_curiam",
    "joined_by_str",
    "type",
    "sha1",
    "page_count",
    "download_url",
    "local_path",
    "plain_text",
    "html",
    "html_lawbox",
    "html_columbia",
    "html_anon_2020",
    "xml_harvard",
    "xml_scan",
    "html_with_citations",
    "extracted_by_ocr",
    "author_id",
    "cluster_id",
];
pub const CITATION_COLUMNS: &[&str] = &[
    "id",
    "volume",
    "reporter",
    "page",
    "type",
    "cluster_id",
    "date_created",
    "date_modified",
];
pub const CITATION_MAP_COLUMNS: &[&str] = &["id", "depth", "cited_opinion_id", "citing_opinion_id"];

/// Writes `clusters` clusters, one opinion of about `opinion_bytes` each,
/// 1.5 citations per cluster and five citation-map rows per opinion.
pub fn generate(dir: &Path, clusters: u64, opinion_bytes: usize) -> std::io::Result<Generated> {
    std::fs::create_dir_all(dir)?;
    let date = "2024-05-06";
    let mut files = Vec::new();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let stamp = Some("2024-05-06 00:00:00+00".to_string());
    let s = |v: &str| Some(v.to_string());

    let mut courts = create(dir, &format!("courts-{date}.csv"), &mut files)?;
    header(&mut courts, COURT_COLUMNS)?;
    for (id, name, _) in COURTS {
        let mut fields = vec![None; COURT_COLUMNS.len()];
        fields[0] = s(id);
        fields[7] = s("t");
        fields[11] = s(id);
        fields[12] = s(name);
        fields[13] = s(name);
        fields[17] = s("F");
        fields[6] = stamp.clone();
        fields[8] = s("t");
        fields[9] = s("f");
        fields[10] = s("1");
        row(&mut courts, &fields)?;
    }
    courts.flush()?;

    let mut dockets = create(dir, &format!("dockets-{date}.csv"), &mut files)?;
    let mut cluster_file = create(dir, &format!("opinion-clusters-{date}.csv"), &mut files)?;
    let mut opinions = create(dir, &format!("opinions-{date}.csv"), &mut files)?;
    let mut citations = create(dir, &format!("citations-{date}.csv"), &mut files)?;
    let mut map = create(dir, &format!("citation-map-{date}.csv"), &mut files)?;
    header(&mut dockets, DOCKET_COLUMNS)?;
    header(&mut cluster_file, CLUSTER_COLUMNS)?;
    header(&mut opinions, OPINION_COLUMNS)?;
    header(&mut citations, CITATION_COLUMNS)?;
    header(&mut map, CITATION_MAP_COLUMNS)?;
    let (mut citation_rows, mut map_rows) = (0u64, 0u64);
    for id in 1..=clusters {
        let court = COURTS[(id % COURTS.len() as u64) as usize];
        let (a, b) = (rng.pick(SURNAMES), rng.pick(SURNAMES));
        let name = format!("{a} v. {b}");
        let year = 1950 + rng.below(74);
        let filed = format!("{year}-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28));

        let mut docket = vec![None; DOCKET_COLUMNS.len()];
        docket[0] = Some(id.to_string());
        docket[1] = stamp.clone();
        docket[2] = stamp.clone();
        docket[3] = s("0");
        docket[18] = Some(name.clone());
        docket[20] = Some(format!("{}-v-{}", a.to_lowercase(), b.to_lowercase()));
        docket[21] = Some(format!("{}-{}", year % 100, 1000 + id % 9000));
        docket[42] = s(court.0);
        row(&mut dockets, &docket)?;

        let mut cluster = vec![None; CLUSTER_COLUMNS.len()];
        cluster[0] = Some(id.to_string());
        cluster[1] = stamp.clone();
        cluster[2] = stamp.clone();
        cluster[3] = Some(format!("{}, J.", rng.pick(SURNAMES)));
        cluster[4] = Some(filed);
        cluster[5] = s("f");
        cluster[6] = Some(format!("{}-v-{}", a.to_lowercase(), b.to_lowercase()));
        cluster[8] = Some(name.clone());
        cluster[14] = s("C");
        cluster[19] = s("");
        cluster[27] = s("0");
        cluster[28] = s("Published");
        cluster[30] = s("f");
        cluster[33] = Some(id.to_string());
        row(&mut cluster_file, &cluster)?;

        let mut opinion = vec![None; OPINION_COLUMNS.len()];
        opinion[0] = Some(id.to_string());
        opinion[1] = stamp.clone();
        opinion[2] = stamp.clone();
        opinion[4] = s("f");
        opinion[6] = s("010combined");
        opinion[11] = Some(opinion_text(&mut rng, id, &name, opinion_bytes));
        opinion[19] = s("f");
        opinion[21] = Some(id.to_string());
        row(&mut opinions, &opinion)?;

        let parallel = id % 2 == 0 && court.0 == "scotus";
        let count = if id % 2 == 0 || parallel { 2 } else { 1 };
        for n in 0..count {
            let (volume, reporter, page) = citation_of(id, n == 1);
            citation_rows += 1;
            let fields = [
                Some(citation_rows.to_string()),
                Some(volume.to_string()),
                Some(reporter.to_string()),
                Some(page.to_string()),
                s(if reporter == "U.S." { "1" } else { "2" }),
                Some(id.to_string()),
                stamp.clone(),
                stamp.clone(),
            ];
            row(&mut citations, &fields)?;
        }

        for _ in 0..5 {
            if id < 2 {
                break;
            }
            let cited = 1 + rng.below(id - 1);
            map_rows += 1;
            let fields = [
                Some(map_rows.to_string()),
                Some((1 + rng.below(3)).to_string()),
                Some(cited.to_string()),
                Some(id.to_string()),
            ];
            row(&mut map, &fields)?;
        }
    }
    for writer in [
        &mut dockets,
        &mut cluster_file,
        &mut opinions,
        &mut citations,
        &mut map,
    ] {
        writer.flush()?;
    }
    Ok(Generated {
        clusters,
        opinions: clusters,
        citations: citation_rows,
        citation_map: map_rows,
        files,
    })
}

/// About `bytes` of opinion text: words, a quotation with quotes and a
/// backslash, line breaks, and citations of earlier clusters.
fn opinion_text(rng: &mut Rng, id: u64, name: &str, bytes: usize) -> String {
    let mut text = format!("{name}\n\nOPINION\n\n");
    while text.len() < bytes {
        for _ in 0..12 {
            text.push_str(rng.pick(WORDS));
            text.push(' ');
        }
        if id > 1 && rng.below(4) == 0 {
            let cited = 1 + rng.below(id - 1);
            let (volume, reporter, page) = citation_of(cited, false);
            text.push_str(&format!(
                "See {} v. {}, {volume} {reporter} {page}, {} ({}). ",
                rng.pick(SURNAMES),
                rng.pick(SURNAMES),
                page + rng.below(5),
                1950 + rng.below(74)
            ));
        }
        if rng.below(10) == 0 {
            text.push_str("The \"plain meaning\" of C:\\path is clear.\n");
        }
        text.push('\n');
    }
    text
}
