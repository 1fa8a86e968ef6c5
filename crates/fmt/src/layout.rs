//! Laying out the token stream: lines, spacing within a line, indentation.
//!
//! The source is cut into lines exactly where it had line breaks: a code
//! line (tokens, maybe a trailing comment), a comment line or a blank line.
//! Each code line's indentation is computed from the layout tree
//! (the `tree` module) and from the columns of the lines laid out before it;
//! a comment line takes the indentation of the code line after it.

use crate::tree::{Builder, Kind, Node, Role};
use parad_syntax::ast::Program;
use parad_syntax::lexer::{Kw, Tok, Token};
use std::collections::{HashMap, HashSet};

/// One line of the output, before indentation.
enum Line {
    /// Tokens `first..=last` and a trailing comment (the width of the
    /// whitespace before it in the source, its text).
    Code {
        first: usize,
        last: usize,
        comment: Option<(usize, String)>,
    },
    /// A line holding only a comment.
    Comment(String),
    Blank,
}

/// A piece of the text between two tokens.
pub(crate) enum Trivia<'a> {
    /// A comment, without its line break, trailing whitespace trimmed.
    Comment(&'a str),
    Newline,
}

/// Splits the text between tokens into comments and line breaks; anything
/// else there is an error (the lexer would have made a token of it).
pub(crate) fn trivia(gap: &str) -> Result<Vec<Trivia<'_>>, String> {
    let mut out = vec![];
    let mut rest = gap;
    while let Some(c) = rest.chars().next() {
        if c == '\n' {
            out.push(Trivia::Newline);
            rest = &rest[1..];
        } else if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if rest.starts_with("--") {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.push(Trivia::Comment(rest[..end].trim_end()));
            rest = &rest[end..];
        } else {
            return Err(format!("unexpected text between tokens: {c:?}"));
        }
    }
    Ok(out)
}

fn is_open(t: &Tok) -> bool {
    matches!(
        t,
        Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::HashBracket
    )
}

fn is_close(t: &Tok) -> bool {
    matches!(t, Tok::RParen | Tok::RBracket | Tok::RBrace)
}

/// Where a construct's lines are placed from: the column or the line
/// indentation of one of its (earlier) tokens.
#[derive(Clone, Copy, Debug)]
enum Anchor {
    Zero,
    Col(usize),
    LineIndent(usize),
}

/// The node that places a line, with its anchor.
#[derive(Clone, Copy)]
struct Decider<'n> {
    node: &'n Node,
    anchor: Anchor,
    root: bool,
}

/// The state of one layout.
struct Layout<'a> {
    src: &'a str,
    toks: &'a [Token],
    starts: Vec<usize>,
    /// The matching bracket of each bracket token.
    partner: Vec<Option<usize>>,
    /// The innermost open bracket around each token.
    enclosing: Vec<Option<usize>>,
    /// Opening braces of module bodies and signatures, with the start of
    /// the declaration they belong to and whether they open a signature.
    mod_braces: HashMap<usize, (usize, bool)>,
    /// First and last tokens of infix operators: spaced on both sides.
    op_first: HashSet<usize>,
    op_last: HashSet<usize>,
    /// Whether the source had whitespace before each token.
    gap_before: Vec<bool>,
    /// Output column and line indentation of each token laid out so far.
    col: Vec<usize>,
    line_indent: Vec<usize>,
    /// Whether a token ends a line that has a trailing comment.
    trailing_comment: Vec<bool>,
    /// Index of the line of each token.
    line_of: Vec<usize>,
    /// For each token that starts a line, the node that places it.
    deciders: Vec<Option<Decider<'a>>>,
}

/// Formats `src`, whose tokens (without the end-of-file token) are `toks`
/// and whose syntax tree is `prog`.
pub(crate) fn layout(src: &str, toks: &[Token], prog: &Program) -> Result<String, String> {
    let toks = match toks.last() {
        Some(Token { tok: Tok::Eof, .. }) => &toks[..toks.len() - 1],
        _ => toks,
    };
    let n = toks.len();
    let starts: Vec<usize> = toks.iter().map(|t| t.span.start as usize).collect();
    let (mut root, ops) = Builder::program(prog, src.len(), toks);
    let root = &mut root;

    // Brackets.
    let mut partner = vec![None; n];
    let mut enclosing = vec![None; n];
    let mut stack: Vec<usize> = vec![];
    for (i, t) in toks.iter().enumerate() {
        if is_close(&t.tok) {
            if let Some(o) = stack.pop() {
                partner[o] = Some(i);
                partner[i] = Some(o);
            }
        }
        enclosing[i] = stack.last().copied();
        if is_open(&t.tok) {
            stack.push(i);
        }
    }

    widen(root, &starts, &partner, toks);
    let root: &Node = root;
    let mut l = Layout {
        src,
        toks,
        starts,
        partner,
        enclosing,
        mod_braces: HashMap::new(),
        op_first: HashSet::new(),
        op_last: HashSet::new(),
        gap_before: vec![false; n],
        col: vec![0; n],
        line_indent: vec![0; n],
        line_of: vec![0; n],
        trailing_comment: vec![false; n],
        deciders: vec![None; n],
    };
    let mut braces = vec![];
    collect_mod_braces(root, true, 0, &mut braces);
    for (b, decl) in braces {
        if let Some(i) = l.tok_at(b) {
            l.mod_braces.insert(i, decl);
        }
    }
    for (a, b) in ops {
        if let (Some(i), Some(j)) = (l.tok_at(a), l.last_tok_before(b)) {
            l.op_first.insert(i);
            l.op_last.insert(j);
        }
    }
    let lines = l.lines()?;
    let firsts: Vec<usize> = lines
        .iter()
        .filter_map(|line| match line {
            Line::Code { first, .. } => Some(*first),
            _ => None,
        })
        .collect();
    let line_starts: Vec<usize> = firsts.iter().map(|&k| l.starts[k]).collect();
    let mut deciders = vec![None; firsts.len()];
    l.assign(
        root,
        Anchor::Zero,
        true,
        (0, firsts.len()),
        &line_starts,
        &mut deciders,
    );
    for (k, d) in firsts.into_iter().zip(deciders) {
        l.deciders[k] = d;
    }
    Ok(l.render(&lines))
}

/// Widens nodes over the parentheses around them (the parser's spans of
/// patterns and types leave grouping parentheses out), so that a line
/// starting with such a parenthesis belongs to the node.
fn widen(n: &mut Node, starts: &[usize], partner: &[Option<usize>], toks: &[Token]) {
    for c in &mut n.children {
        widen(c, starts, partner, toks);
    }
    n.first_arg = n
        .children
        .iter()
        .find(|c| c.role == Role::Arg)
        .map(|c| c.start);
    let (Ok(mut i), false) = (starts.binary_search(&n.start), n.end == 0) else {
        return;
    };
    let mut j = toks.partition_point(|t| (t.span.end as usize) <= n.end);
    // `j` is one past the last token of the node.
    while i > 0 && j < toks.len() && toks[i - 1].tok == Tok::LParen && partner[i - 1] == Some(j) {
        i -= 1;
        j += 1;
    }
    n.start = starts[i];
    if j > 0 {
        n.end = n.end.max(toks[j - 1].span.end as usize);
    }
}

/// The module braces below `n` and the start of the declaration around
/// each (`decl`, for `n` itself).
fn collect_mod_braces(n: &Node, root: bool, decl: usize, out: &mut Vec<(usize, (usize, bool))>) {
    if n.kind == Kind::ModBlock && !root {
        out.push((n.start, (decl, n.is_sig)));
    }
    for c in &n.children {
        let d = if c.role == Role::Item { c.start } else { decl };
        collect_mod_braces(c, false, d, out);
    }
}

impl Layout<'_> {
    /// The token starting at byte `pos`.
    fn tok_at(&self, pos: usize) -> Option<usize> {
        self.starts.binary_search(&pos).ok()
    }

    /// The last token ending at or before byte `end`.
    fn last_tok_before(&self, end: usize) -> Option<usize> {
        let i = self.toks.partition_point(|t| (t.span.end as usize) <= end);
        i.checked_sub(1)
    }

    fn text(&self, i: usize) -> &str {
        &self.src[self.toks[i].span.range()]
    }

    /// Cuts the source into lines.
    fn lines(&mut self) -> Result<Vec<Line>, String> {
        let n = self.toks.len();
        let mut lines = vec![];
        let mut cur: Option<(usize, usize)> = None;
        let mut comment: Option<(usize, String)> = None;
        let mut prev_end = 0;
        for i in 0..=n {
            let next_start = if i < n {
                self.starts[i]
            } else {
                self.src.len()
            };
            let gap = &self.src[prev_end..next_start];
            let segs: Vec<&str> = gap.split('\n').collect();
            let last = segs.len() - 1;
            for (k, seg) in segs.iter().enumerate() {
                let trimmed = seg.trim();
                if !trimmed.is_empty() && !trimmed.starts_with("--") {
                    return Err(format!("unexpected text between tokens: {trimmed:?}"));
                }
                if k == 0 && cur.is_some() {
                    // The rest of the current line.
                    if !trimmed.is_empty() {
                        let ws = seg.len() - seg.trim_start().len();
                        comment = Some((ws.max(1), trimmed.to_string()));
                    }
                    if k < last {
                        if let Some((first, last)) = cur.take() {
                            lines.push(Line::Code {
                                first,
                                last,
                                comment: comment.take(),
                            });
                        }
                    }
                    continue;
                }
                if k == last && i < n {
                    // The start of the next token's line.
                    continue;
                }
                lines.push(if trimmed.is_empty() {
                    Line::Blank
                } else {
                    Line::Comment(trimmed.to_string())
                });
            }
            if i < n {
                self.gap_before[i] = !gap.is_empty();
                cur = Some(match cur {
                    Some((first, _)) => (first, i),
                    None => (i, i),
                });
                prev_end = self.toks[i].span.end as usize;
            }
        }
        if let Some((first, last)) = cur.take() {
            lines.push(Line::Code {
                first,
                last,
                comment: comment.take(),
            });
        }
        for (li, line) in lines.iter().enumerate() {
            if let Line::Code {
                first,
                last,
                comment,
            } = line
            {
                for t in *first..=*last {
                    self.line_of[t] = li;
                }
                self.trailing_comment[*last] = comment.is_some();
            }
        }
        Ok(lines)
    }

    /// Whether a space separates tokens `a` and `b = a + 1` on one line.
    fn space_between(&self, a: usize, b: usize) -> bool {
        let (ta, tb) = (&self.toks[a].tok, &self.toks[b].tok);
        if *tb == Tok::Comma {
            return false;
        }
        if *ta == Tok::Comma && !is_close(tb) {
            return true;
        }
        if matches!(ta, Tok::Equals | Tok::Arrow) || matches!(tb, Tok::Equals | Tok::Arrow) {
            return true;
        }
        self.op_first.contains(&b) || self.op_last.contains(&a) || self.gap_before[b]
    }

    /// Lays out all lines.
    fn render(&mut self, lines: &[Line]) -> String {
        // Code lines first: their indentation depends on earlier lines only.
        let mut code: Vec<Option<String>> = Vec::with_capacity(lines.len());
        let mut indents = vec![0usize; lines.len()];
        for (li, line) in lines.iter().enumerate() {
            let Line::Code {
                first,
                last,
                comment,
            } = line
            else {
                code.push(None);
                continue;
            };
            let indent = self.indent(*first);
            indents[li] = indent;
            let mut s = " ".repeat(indent);
            let mut width = indent;
            for t in *first..=*last {
                if t > *first && self.space_between(t - 1, t) {
                    s.push(' ');
                    width += 1;
                }
                self.col[t] = width;
                self.line_indent[t] = indent;
                let text = self.text(t);
                s.push_str(text);
                width += text.chars().count();
            }
            if let Some((ws, c)) = comment {
                s.push_str(&" ".repeat(*ws));
                s.push_str(c);
            }
            code.push(Some(s));
        }
        // Comment lines take the indentation of the next code line.
        let mut next_indent = 0;
        for li in (0..lines.len()).rev() {
            match lines[li] {
                Line::Code { .. } => next_indent = indents[li],
                _ => indents[li] = next_indent,
            }
        }
        let mut out = String::new();
        let mut pending_blank = false;
        for (li, line) in lines.iter().enumerate() {
            let text = match line {
                Line::Blank => {
                    pending_blank = !out.is_empty();
                    continue;
                }
                Line::Comment(c) => format!("{}{c}", " ".repeat(indents[li])),
                Line::Code { .. } => code[li].take().unwrap_or_default(),
            };
            if pending_blank {
                out.push('\n');
                pending_blank = false;
            }
            out.push_str(&text);
            out.push('\n');
        }
        out
    }

    /// The indentation of a line that starts with token `k`.
    fn indent(&self, k: usize) -> usize {
        let t = &self.toks[k].tok;
        if is_close(t) {
            if let Some(o) = self.partner[k] {
                return if self.mod_braces.contains_key(&o) {
                    self.mod_base(o)
                } else {
                    self.col[o]
                };
            }
        }
        if *t == Tok::Comma {
            if let Some(o) = self.enclosing[k] {
                return self.col[o];
            }
        }
        if k > 0 && self.after_comment_break(k - 1) {
            // A comment at the end of the line broke the line after a
            // keyword: the code goes where it would have been.
            let w = self.text(k - 1).chars().count();
            return self.col[k - 1] + w + 1;
        }
        if k > 0 && is_open(&self.toks[k - 1].tok) {
            let o = k - 1;
            return if self.mod_braces.contains_key(&o) {
                self.mod_base(o) + 2
            } else {
                self.col[o] + 2
            };
        }
        match self.deciders.get(k).copied().flatten() {
            Some(d) => self.place(d.node, k, self.anchor_value(d.anchor), d.root),
            None => 0,
        }
    }

    /// Whether token `j` ends a line that has a trailing comment and is a
    /// keyword after which code continues on the same line (`then`, `else`,
    /// `in`, `do`, the `:` of a record type's field) or an infix operator.
    fn after_comment_break(&self, j: usize) -> bool {
        self.trailing_comment[j]
            && (self.op_last.contains(&j)
                || matches!(
                    self.toks[j].tok,
                    Tok::Kw(Kw::Then | Kw::Else | Kw::In | Kw::Do) | Tok::Colon
                ))
    }

    /// The column of an argument of `n` (starting token `k`): that of the
    /// first argument if that is on `n`'s first line, else two columns in.
    fn arg_column(&self, n: &Node, k: usize, anchor: usize) -> usize {
        match n.first_arg.and_then(|f| self.tok_at(f)) {
            Some(f)
                if f < k
                    && self
                        .tok_at(n.start)
                        .is_some_and(|s| self.line_of[s] == self.line_of[f]) =>
            {
                self.col[f]
            }
            _ => anchor + 2,
        }
    }

    /// The indentation that the items of a module body or signature whose
    /// `{` is token `o` are two columns past, and its `}` lines up with:
    /// - a signature after a `:` that starts a line (`module m\n  : {`):
    ///   the column of the `{`;
    /// - a `{` that ends a line that continues a declaration's header and
    ///   starts with `}` or `:` (`} = {`, `  : s = {`): the indentation of
    ///   the declaration's first line;
    /// - otherwise the indentation of the line of the `{`.
    fn mod_base(&self, o: usize) -> usize {
        let Some(&(decl, is_sig)) = self.mod_braces.get(&o) else {
            return self.line_indent[o];
        };
        let first = (0..=o)
            .rev()
            .take_while(|&i| self.line_of[i] == self.line_of[o])
            .last()
            .unwrap_or(o);
        if is_sig && first + 1 == o && self.toks[first].tok == Tok::Colon {
            return self.col[o];
        }
        let ends_line = o + 1 >= self.toks.len() || self.line_of[o + 1] != self.line_of[o];
        let continuation = matches!(self.toks[first].tok, Tok::RBrace | Tok::Colon);
        match self.tok_at(decl) {
            Some(d) if ends_line && continuation && d < first => self.line_indent[d],
            _ => self.line_indent[o],
        }
    }

    /// The column of node `n`'s content: its first token after grouping
    /// parentheses.
    fn anchor_tok(&self, n: &Node) -> Option<usize> {
        let mut i = self.tok_at(n.start)?;
        let mut j = self.last_tok_before(n.end)?;
        let mut layers = 0;
        while i < j && self.toks[i].tok == Tok::LParen && self.partner[i] == Some(j) {
            i += 1;
            j -= 1;
            layers += 1;
        }
        if n.own_parens && layers > 0 {
            i -= 1;
        }
        Some(i)
    }

    /// The anchor of child `c` of a node whose anchor is `anchor`.
    fn child_anchor(&self, c: &Node, anchor: Anchor) -> Anchor {
        let Some(i) = self.anchor_tok(c) else {
            return anchor;
        };
        let else_if = c.role == Role::ElseBranch
            && c.is_if
            && i > 0
            && self.toks[i - 1].tok == Tok::Kw(Kw::Else)
            && self.line_of[i - 1] == self.line_of[i];
        // A lambda given as last argument without parentheses
        // (`f x \\y ->`) is laid out from the application's start.
        let bare_lambda = c.is_lambda && c.role == Role::Arg && self.tok_at(c.start) == Some(i);
        if else_if || bare_lambda {
            anchor
        } else if c.line_based {
            Anchor::LineIndent(i)
        } else {
            Anchor::Col(i)
        }
    }

    /// Finds, for every line start (`line_starts[lo..hi]`, all strictly
    /// inside `n`), the innermost node that strictly contains it and that
    /// node's anchor. One pass over the tree, with binary searches: deep
    /// trees (long `let` chains, long operator chains) stay linear.
    fn assign<'n>(
        &self,
        n: &'n Node,
        anchor: Anchor,
        root: bool,
        (lo, hi): (usize, usize),
        line_starts: &[usize],
        out: &mut [Option<Decider<'n>>],
    ) {
        let own = |out: &mut [Option<Decider<'n>>], from: usize, to: usize| {
            for d in out.iter_mut().take(to).skip(from) {
                if d.is_none() {
                    *d = Some(Decider {
                        node: n,
                        anchor,
                        root,
                    });
                }
            }
        };
        let mut covered = lo;
        for c in &n.children {
            let a = line_starts.partition_point(|&p| p <= c.start).clamp(lo, hi);
            let b = line_starts.partition_point(|&p| p < c.end).clamp(lo, hi);
            if covered < a {
                own(out, covered, a);
            }
            if a < b {
                self.assign(
                    c,
                    self.child_anchor(c, anchor),
                    false,
                    (a, b),
                    line_starts,
                    out,
                );
            }
            covered = covered.max(b);
        }
        own(out, covered, hi);
    }

    /// The value of an anchor for a line starting with token `k`.
    fn anchor_value(&self, a: Anchor) -> usize {
        match a {
            Anchor::Zero => 0,
            Anchor::Col(i) => self.col[i],
            Anchor::LineIndent(i) => self.line_indent[i],
        }
    }

    /// The indentation of a line starting with token `k` inside node `n`
    /// (and in no child of it), whose content starts in column `anchor`.
    fn place(&self, n: &Node, k: usize, anchor: usize, root: bool) -> usize {
        let p = self.starts[k];
        let item = if root {
            0
        } else {
            self.tok_at(n.start)
                .map_or(anchor, |i| self.mod_base(i) + 2)
        };
        let at = n.children.partition_point(|c| c.start < p);
        if let Some(c) = n.children.get(at).filter(|c| c.start == p) {
            if n.kind == Kind::ModBlock {
                return item;
            }
            return match c.role {
                Role::Aligned => anchor,
                // `else` at the end of a line and `if` on the next: the
                // chain still lines up.
                Role::ElseBranch if c.is_if => anchor,
                Role::Indented if c.is_sum => anchor + 4,
                Role::Indented | Role::ElseBranch | Role::Item => anchor + 2,
                Role::Arg => self.arg_column(n, k, anchor),
            };
        }
        if n.kind == Kind::ModBlock {
            return item;
        }
        match &self.toks[k].tok {
            Tok::Symbol(s) if n.is_sum && s == "|" => anchor.saturating_sub(2),
            // The return type of a definition with its parameters.
            Tok::Colon if n.first_arg.is_some() => self.arg_column(n, k, anchor),
            Tok::Kw(Kw::In | Kw::Then | Kw::Else | Kw::Do | Kw::For | Kw::While | Kw::With)
            | Tok::Kw(Kw::Case)
            | Tok::Symbol(_)
            | Tok::Arrow
            | Tok::ColonGt
            | Tok::Backtick => anchor,
            _ if self.op_first.contains(&k) => anchor,
            _ => anchor + 2,
        }
    }
}
