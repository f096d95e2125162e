//! The small subset of regular expressions that reporters-db writes its
//! citation templates in, matched by a bounded backtracker.
//!
//! Templates are only ever run next to a reporter string the scanner has
//! already found, so they see a few dozen bytes, never the whole document.
//! That is why a backtracker is enough, and why patterns can be matched
//! backward: the part of a template before the reporter ("$volume ") is
//! compiled reversed and run leftward from the reporter's first byte.
//!
//! Supported: literals, escapes (`\d \w \s` and escaped punctuation),
//! classes `[...]` with ranges and negation, `.`, groups `( )`, `(?: )`,
//! `(?P<name> )`, alternation, `? * + {m} {m,} {m,n} {,n}` (greedy, or lazy
//! with a trailing `?`), and the placeholder `$edition` where the reporter
//! string goes. A literal space matches a run of whitespace, because real
//! documents wrap lines and double-space inside citations; read forward,
//! right after a period it may also match nothing ("347 U.S.483"), as the
//! scanner ignores whitespace after a period in reporter names.

use std::fmt;

/// Steps one match attempt may take; patterns here need a few hundred.
const STEP_BUDGET: usize = 20_000;
/// Longest whitespace run a literal space may consume, in bytes.
const MAX_SPACE_RUN: usize = 48;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Empty,
    Char(char),
    /// A literal space: one or more whitespace characters (or, read
    /// forward, none right after a period).
    Space,
    Class(CharClass),
    Group {
        name: Option<String>,
        node: Box<Node>,
    },
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// `$edition`: where the reporter string sits in a template.
    Edition,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CharClass {
    negated: bool,
    items: Vec<ClassItem>,
}

#[derive(Debug, Clone, PartialEq)]
enum ClassItem {
    Range(char, char),
    Digit,
    Word,
    Space,
    NotNewline,
}

impl CharClass {
    fn single(item: ClassItem) -> CharClass {
        CharClass {
            negated: false,
            items: vec![item],
        }
    }

    fn matches(&self, c: char) -> bool {
        let hit = self.items.iter().any(|item| match *item {
            ClassItem::Range(lo, hi) => lo <= c && c <= hi,
            ClassItem::Digit => c.is_ascii_digit(),
            ClassItem::Word => c.is_alphanumeric() || c == '_',
            ClassItem::Space => is_space(c),
            ClassItem::NotNewline => c != '\n',
        });
        hit != self.negated
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParseError {
    pub message: String,
    pub at: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.at)
    }
}

/// Parses a pattern into a syntax tree.
pub(crate) fn parse(source: &str) -> Result<Node, ParseError> {
    let mut parser = Parser {
        chars: source.char_indices().collect(),
        pos: 0,
        len: source.len(),
    };
    let node = parser.alternation()?;
    if parser.pos < parser.chars.len() {
        return Err(parser.error("unbalanced ')'"));
    }
    Ok(node)
}

struct Parser {
    chars: Vec<(usize, char)>,
    pos: usize,
    len: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).map(|&(_, c)| c)
    }

    fn error(&self, message: &str) -> ParseError {
        ParseError {
            message: message.to_string(),
            at: self.chars.get(self.pos).map_or(self.len, |&(i, _)| i),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self) -> Result<Node, ParseError> {
        let mut branches = vec![self.concatenation()?];
        while self.eat('|') {
            branches.push(self.concatenation()?);
        }
        Ok(if branches.len() == 1 {
            branches.remove(0)
        } else {
            Node::Alt(branches)
        })
    }

    fn concatenation(&mut self) -> Result<Node, ParseError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.remove(0),
            _ => Node::Concat(items),
        })
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, ParseError> {
        let (min, max) = match self.peek() {
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('{') => match self.counted()? {
                Some(bounds) => bounds,
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        let greedy = !self.eat('?');
        if matches!(self.peek(), Some('?' | '*' | '+')) {
            return Err(self.error("nested quantifier"));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// `{m}`, `{m,}`, `{m,n}` or `{,n}`; `None` when the brace is a literal.
    fn counted(&mut self) -> Result<Option<(u32, Option<u32>)>, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let min = self.number();
        let (min, max) = if self.eat(',') {
            let max = self.number();
            (min.unwrap_or(0), max)
        } else {
            match min {
                Some(n) => (n, Some(n)),
                None => {
                    self.pos = start;
                    return Ok(None);
                }
            }
        };
        if !self.eat('}') {
            self.pos = start;
            return Ok(None);
        }
        if max.is_some_and(|max| max < min) || min > 64 || max.is_some_and(|m| m > 64) {
            return Err(self.error("bad repetition bounds"));
        }
        Ok(Some((min, max)))
    }

    fn number(&mut self) -> Option<u32> {
        let mut value: Option<u32> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = Some(value.unwrap_or(0).saturating_mul(10).saturating_add(d));
            self.pos += 1;
        }
        value
    }

    fn atom(&mut self) -> Result<Node, ParseError> {
        let c = self.peek().ok_or_else(|| self.error("unexpected end"))?;
        self.pos += 1;
        match c {
            '(' => self.group(),
            '[' => self.class().map(Node::Class),
            '\\' => self.escape(),
            '.' => Ok(Node::Class(CharClass::single(ClassItem::NotNewline))),
            ' ' => Ok(Node::Space),
            '$' => {
                for expected in "edition".chars() {
                    if !self.eat(expected) {
                        return Err(self.error("unknown template variable"));
                    }
                }
                Ok(Node::Edition)
            }
            '^' | '*' | '+' | '?' => Err(self.error("unsupported syntax")),
            other => Ok(Node::Char(other)),
        }
    }

    fn group(&mut self) -> Result<Node, ParseError> {
        let mut name = None;
        if self.eat('?') {
            if self.eat(':') {
            } else if self.eat('P') && self.eat('<') {
                let mut text = String::new();
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == '>' {
                        break;
                    }
                    text.push(c);
                }
                name = Some(text);
            } else {
                return Err(self.error("unsupported group"));
            }
        }
        let inner = self.alternation()?;
        if !self.eat(')') {
            return Err(self.error("missing ')'"));
        }
        Ok(Node::Group {
            name,
            node: Box::new(inner),
        })
    }

    fn escape(&mut self) -> Result<Node, ParseError> {
        let c = self.peek().ok_or_else(|| self.error("dangling '\\'"))?;
        self.pos += 1;
        Ok(match c {
            'd' => Node::Class(CharClass::single(ClassItem::Digit)),
            'w' => Node::Class(CharClass::single(ClassItem::Word)),
            's' => Node::Class(CharClass::single(ClassItem::Space)),
            'n' => Node::Char('\n'),
            c if c.is_ascii_alphanumeric() => return Err(self.error("unsupported escape")),
            c => Node::Char(c),
        })
    }

    fn class(&mut self) -> Result<CharClass, ParseError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let c = self.peek().ok_or_else(|| self.error("missing ']'"))?;
            self.pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.peek().ok_or_else(|| self.error("dangling '\\'"))?;
                self.pos += 1;
                match e {
                    'd' => {
                        items.push(ClassItem::Digit);
                        continue;
                    }
                    'w' => {
                        items.push(ClassItem::Word);
                        continue;
                    }
                    's' => {
                        items.push(ClassItem::Space);
                        continue;
                    }
                    e => e,
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|n| n != ']') {
                self.pos += 1;
                let hi = self.peek().ok_or_else(|| self.error("missing ']'"))?;
                self.pos += 1;
                items.push(ClassItem::Range(lo, hi));
            } else {
                items.push(ClassItem::Range(lo, lo));
            }
        }
        Ok(CharClass { negated, items })
    }
}

/// Which way a compiled program reads the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Backward,
}

#[derive(Debug, Clone)]
enum Inst {
    Char(char),
    Space,
    Class(CharClass),
    /// Try the first target, then the second.
    Split(usize, usize),
    Jump(usize),
    Save(usize),
    Match,
}

/// A compiled pattern. Capture slots are byte offsets in the text, in text
/// order whichever way the program reads.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    direction: Direction,
    names: Vec<String>,
}

/// Capture positions of one match: `slots[2 * group]` and the slot after it.
pub(crate) type Slots = Vec<Option<usize>>;

enum Frame {
    Step(usize, usize),
    Restore(usize, Option<usize>),
}

/// Working memory for [`Program::run`], reused across runs so matching
/// does not allocate; `slots` holds the last run's captures.
#[derive(Default)]
pub(crate) struct Backtrack {
    stack: Vec<Frame>,
    pub slots: Slots,
}

impl Program {
    /// Compiles `node` (which must not contain `$edition`).
    pub fn compile(node: &Node, direction: Direction) -> Program {
        let mut compiler = Compiler {
            insts: Vec::new(),
            names: Vec::new(),
            direction,
        };
        compiler.emit_node(node);
        compiler.insts.push(Inst::Match);
        Program {
            insts: compiler.insts,
            direction,
            names: compiler.names,
        }
    }

    pub fn group_names(&self) -> &[String] {
        &self.names
    }

    /// Matches starting at byte `at` (reading forward, or backward from
    /// `at`), returning where the match stops: its end going forward, its
    /// start going backward. The first match in priority order that
    /// `accept` agrees to wins.
    pub fn run(
        &self,
        text: &str,
        at: usize,
        backtrack: &mut Backtrack,
        accept: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        let Backtrack { stack, slots } = backtrack;
        slots.clear();
        slots.resize(self.names.len() * 2, None);
        stack.clear();
        stack.push(Frame::Step(0, at));
        let backward = self.direction == Direction::Backward;
        let mut budget = STEP_BUDGET;
        while let Some(frame) = stack.pop() {
            let (mut pc, mut pos) = match frame {
                Frame::Restore(slot, old) => {
                    slots[slot] = old;
                    continue;
                }
                Frame::Step(pc, pos) => (pc, pos),
            };
            loop {
                if budget == 0 {
                    return None;
                }
                budget -= 1;
                match &self.insts[pc] {
                    Inst::Char(expected) => match step(text, pos, backward) {
                        Some((c, next)) if c == *expected => {
                            pos = next;
                            pc += 1;
                        }
                        _ => break,
                    },
                    Inst::Class(class) => match step(text, pos, backward) {
                        Some((c, next)) if class.matches(c) => {
                            pos = next;
                            pc += 1;
                        }
                        _ => break,
                    },
                    Inst::Space => {
                        let start = pos;
                        while let Some((c, next)) = step(text, pos, backward) {
                            if !is_space(c) || next.abs_diff(start) > MAX_SPACE_RUN {
                                break;
                            }
                            pos = next;
                        }
                        let after_period = !backward && text[..pos].ends_with('.');
                        if pos == start && !after_period {
                            break;
                        }
                        pc += 1;
                    }
                    Inst::Split(first, second) => {
                        stack.push(Frame::Step(*second, pos));
                        pc = *first;
                    }
                    Inst::Jump(target) => pc = *target,
                    Inst::Save(slot) => {
                        stack.push(Frame::Restore(*slot, slots[*slot]));
                        slots[*slot] = Some(pos);
                        pc += 1;
                    }
                    Inst::Match => {
                        if accept(pos) {
                            return Some(pos);
                        }
                        break;
                    }
                }
            }
        }
        None
    }
}

/// Whitespace, and the zero-width characters web pages leave between
/// words ("§\u{200d}1229a").
fn is_space(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
        )
}

/// The character next to `pos` in the reading direction, and the position
/// after it.
fn step(text: &str, pos: usize, backward: bool) -> Option<(char, usize)> {
    if backward {
        let c = text.get(..pos)?.chars().next_back()?;
        Some((c, pos - c.len_utf8()))
    } else {
        let c = text.get(pos..)?.chars().next()?;
        Some((c, pos + c.len_utf8()))
    }
}

struct Compiler {
    insts: Vec<Inst>,
    names: Vec<String>,
    direction: Direction,
}

impl Compiler {
    fn emit_node(&mut self, node: &Node) {
        match node {
            Node::Empty | Node::Edition => {}
            Node::Char(c) => self.insts.push(Inst::Char(*c)),
            Node::Space => self.insts.push(Inst::Space),
            Node::Class(class) => self.insts.push(Inst::Class(class.clone())),
            Node::Group { name, node } => match name {
                Some(name) => {
                    let index = match self.names.iter().position(|n| n == name) {
                        Some(index) => index,
                        None => {
                            self.names.push(name.clone());
                            self.names.len() - 1
                        }
                    };
                    let (open, close) = match self.direction {
                        Direction::Forward => (2 * index, 2 * index + 1),
                        Direction::Backward => (2 * index + 1, 2 * index),
                    };
                    self.insts.push(Inst::Save(open));
                    self.emit_node(node);
                    self.insts.push(Inst::Save(close));
                }
                None => self.emit_node(node),
            },
            Node::Concat(items) => {
                if self.direction == Direction::Forward {
                    items.iter().for_each(|item| self.emit_node(item));
                } else {
                    items.iter().rev().for_each(|item| self.emit_node(item));
                }
            }
            Node::Alt(branches) => {
                let mut jumps = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 < branches.len() {
                        let split = self.insts.len();
                        self.insts.push(Inst::Split(split + 1, 0));
                        self.emit_node(branch);
                        jumps.push(self.insts.len());
                        self.insts.push(Inst::Jump(0));
                        let next = self.insts.len();
                        self.insts[split] = Inst::Split(split + 1, next);
                    } else {
                        self.emit_node(branch);
                    }
                }
                let end = self.insts.len();
                for jump in jumps {
                    self.insts[jump] = Inst::Jump(end);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.emit_node(node);
                }
                match max {
                    Some(max) => {
                        // Nested optionals: x{0,2} is (x(x)?)?.
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.insts.len());
                            self.insts.push(Inst::Split(0, 0));
                            self.emit_node(node);
                        }
                        let end = self.insts.len();
                        for split in splits {
                            self.insts[split] = if *greedy {
                                Inst::Split(split + 1, end)
                            } else {
                                Inst::Split(end, split + 1)
                            };
                        }
                    }
                    None => {
                        let split = self.insts.len();
                        self.insts.push(Inst::Split(0, 0));
                        self.emit_node(node);
                        self.insts.push(Inst::Jump(split));
                        let end = self.insts.len();
                        self.insts[split] = if *greedy {
                            Inst::Split(split + 1, end)
                        } else {
                            Inst::Split(end, split + 1)
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(pattern: &str, text: &str, at: usize) -> Option<(usize, Vec<(String, String)>)> {
        let program = Program::compile(&parse(pattern).unwrap(), Direction::Forward);
        let mut bt = Backtrack::default();
        let end = program.run(text, at, &mut bt, &|_| true)?;
        let slots = bt.slots;
        let groups = program
            .group_names()
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let (s, e) = (slots[2 * i]?, slots[2 * i + 1]?);
                Some((name.clone(), text[s..e].to_string()))
            })
            .collect();
        Some((end, groups))
    }

    #[test]
    fn literal_space_matches_a_whitespace_run() {
        assert_eq!(find("a b", "a \n b", 0).map(|m| m.0), Some(5));
        assert_eq!(find("a b", "a\u{200d}b", 0).map(|m| m.0), Some(5));
        assert_eq!(find("a b", "ab", 0), None);
        assert_eq!(find(r"a\. b", "a.b", 0).map(|m| m.0), Some(3));
    }

    #[test]
    fn named_groups_and_counted_repetition() {
        let (end, groups) = find(r"(?P<volume>\d{1,3}) x", "1234 x", 1).unwrap();
        assert_eq!(end, 6);
        assert_eq!(groups, vec![("volume".into(), "234".into())]);
        assert!(find(r"\d{1,3} x", "1234 x", 0).is_none());
        assert!(find(r"\d{,2}x", "12x", 0).is_some());
    }

    #[test]
    fn alternation_prefers_the_first_branch_and_backtracks() {
        let (end, groups) = find(r"(?P<p>ab|a)b", "ab", 0).unwrap();
        assert_eq!((end, groups[0].1.as_str()), (2, "a"));
    }

    #[test]
    fn classes_ranges_negation_and_escapes() {
        assert!(find(r"[\[(]A[)\]]", "[A)", 0).is_some());
        assert!(find(r"[^a-z]", "Q", 0).is_some());
        assert!(find(r"[^a-z]", "q", 0).is_none());
        assert!(find(r"\d+\-[A-Z]", "12-B", 0).is_some());
        assert!(find(r"[§|s]", "§", 0).is_some());
    }

    #[test]
    fn backward_programs_capture_in_text_order() {
        let node = parse(r"(?P<volume>\d+) ").unwrap();
        let program = Program::compile(&node, Direction::Backward);
        let text = "see 347 U.S.";
        let mut bt = Backtrack::default();
        let start = program.run(text, 8, &mut bt, &|_| true).unwrap();
        assert_eq!(start, 4);
        assert_eq!((bt.slots[0], bt.slots[1]), (Some(4), Some(7)));
    }

    #[test]
    fn accept_rejects_and_backtracking_continues() {
        let node = parse(r"\d+").unwrap();
        let program = Program::compile(&node, Direction::Forward);
        let mut bt = Backtrack::default();
        // Only accept an end that is followed by a space.
        let text = "123 ";
        let end = program.run(text, 0, &mut bt, &|end| text[end..].starts_with(' '));
        assert_eq!(end, Some(3));
        let end = program.run("12x", 0, &mut bt, &|_| false);
        assert_eq!(end, None);
    }

    #[test]
    fn rejects_what_it_does_not_support() {
        assert!(parse(r"a(?=b)").is_err());
        assert!(parse(r"\bword").is_err());
        assert!(parse(r"(a").is_err());
        assert!(parse(r"a)").is_err());
    }

    #[test]
    fn pathological_patterns_stop_at_the_budget() {
        let node = parse(r"(?:a*)*b").unwrap();
        let program = Program::compile(&node, Direction::Forward);
        let text = "a".repeat(5000);
        let mut bt = Backtrack::default();
        assert_eq!(program.run(&text, 0, &mut bt, &|_| true), None);
    }
}
