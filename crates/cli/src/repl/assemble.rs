//! One program from the pieces of a session, and diagnostics about it
//! moved back into the pieces.
//!
//! # Redefinitions
//!
//! A Futhark file may not define a name twice, but a REPL user redefines
//! names all the time (`def f x = …`, try it, `def f x = …` again), and
//! what was defined with the old meaning keeps it (`def y = f 1` before
//! the redefinition still uses the old `f`). So the session's pieces are
//! grouped into *layers*: a piece that defines a name the current layer
//! already defines starts a new layer. Every layer but the last is
//! checked inside a module that is opened right away:
//!
//! ```text
//! import "lib"            -- the layer's imports and opens, copied out
//! open {
//!   <the layer's pieces>  -- `entry` and `local` blanked out
//! }
//! <the last layer's pieces, as typed>
//! ```
//!
//! Names defined in different modules do not clash, and opening a module
//! shadows what an earlier one defined, as the redefinition should. The
//! edits keep every offset: `entry` becomes `def  ` (entry points are not
//! allowed in a module, and the REPL runs none of the session's) and
//! `local` becomes spaces (a `local` definition of a loaded file stays
//! visible in the session, as it is before any redefinition). A
//! module's `import` and `open` are not exported from it, so they are
//! also copied before the module (or after it, when they open a module
//! the layer defines), for the layers after it to see.
//!
//! # Locations
//!
//! The assembled text is made of *segments*: a piece's text (at an offset
//! in the piece) or generated text. A span in a piece's segment is moved
//! to a file of its own named after the piece; a span in generated text
//! is moved to the piece text it was copied from, or to the piece after
//! it.

use super::session::Piece;
use parad_base::{Diagnostic, FileId, SourceMap, Span};
use parad_syntax::ast::{Decl, ModExp, ValKind};
use parad_syntax::lexer::{self, Kw, Tok};
use std::collections::HashSet;
use std::ops::Range;

/// A piece with what assembling needs to know about its declarations.
#[derive(Clone, Debug)]
pub struct Analysed {
    pub piece: Piece,
    /// The names the piece defines, by namespace (`v:x`, `t:t`, `m:M`,
    /// `s:MT`).
    names: HashSet<String>,
    /// Offsets of the top-level `entry` and `local` keywords, and their
    /// same-length replacements.
    edits: Vec<(usize, &'static str)>,
    /// Top-level `import` and `open` declarations: their text range and,
    /// for `open M`, the module name `M` starts with.
    scope_decls: Vec<(Range<usize>, Option<String>)>,
}

impl Analysed {
    /// Analyses a piece of declarations (one that does not parse is taken
    /// as defining nothing: checking it reports its error).
    pub fn new(piece: Piece) -> Analysed {
        let mut a = Analysed {
            piece,
            names: HashSet::new(),
            edits: vec![],
            scope_decls: vec![],
        };
        let text = &a.piece.text;
        let (Ok(program), Ok(lexed)) = (
            parad_syntax::parse(FileId(0), text),
            lexer::lex(FileId(0), text),
        ) else {
            return a;
        };
        let tokens = lexed.tokens;
        for d in &program.decls {
            a.decl(d, &tokens);
        }
        a
    }

    fn decl(&mut self, d: &Decl, tokens: &[lexer::Token]) {
        let keyword_at = |at: u32, kw: Kw| {
            tokens
                .iter()
                .any(|t| t.span.start == at && t.tok == Tok::Kw(kw))
        };
        match d {
            Decl::Val(v) => {
                self.names.insert(format!("v:{}", v.name.name));
                if v.kind == ValKind::Entry {
                    // The nearest `entry` before the name.
                    let kw = tokens
                        .iter()
                        .filter(|t| t.span.start < v.name.span.start)
                        .rfind(|t| t.tok == Tok::Kw(Kw::Entry));
                    if let Some(t) = kw {
                        self.edits.push((t.span.start as usize, "def  "));
                    }
                }
            }
            Decl::Type(t) => {
                self.names.insert(format!("t:{}", t.name.name));
            }
            Decl::Module(m) => {
                self.names.insert(format!("m:{}", m.name.name));
            }
            Decl::ModType(m) => {
                self.names.insert(format!("s:{}", m.name.name));
            }
            Decl::Open(me, span) => {
                let head = match me {
                    ModExp::Var(q) => Some(q.quals.first().unwrap_or(&q.name).clone()),
                    ModExp::Import(..) => None,
                    // Anything else may use the layer's modules.
                    _ => Some(String::new()),
                };
                self.scope_decls.push((span.range(), head));
            }
            Decl::Import(_, span) => self.scope_decls.push((span.range(), None)),
            Decl::Local(inner, span) => {
                if keyword_at(span.start, Kw::Local) {
                    self.edits.push((span.start as usize, "     "));
                }
                self.decl(inner, tokens);
            }
        }
    }
}

/// Whether `piece` must start a new layer after `layer` (it redefines a
/// name of it).
pub fn clashes<'a>(layer: impl IntoIterator<Item = &'a Analysed>, piece: &Analysed) -> bool {
    layer
        .into_iter()
        .any(|p| !p.names.is_disjoint(&piece.names))
}

/// Where a segment of the assembled text comes from.
#[derive(Clone, Debug)]
enum Origin {
    /// Piece `piece` from its byte `offset` on.
    Piece { piece: usize, offset: usize },
    /// Generated text, copied from the range of piece `piece` (when it
    /// was), else shown as the piece after it.
    Generated(Option<(usize, Range<usize>)>),
}

/// A program assembled from pieces.
pub struct Assembled {
    pub name: String,
    pub text: String,
    pieces: Vec<Piece>,
    /// `(start, origin)` of each segment, in order.
    segments: Vec<(usize, Origin)>,
}

impl Assembled {
    /// An empty program named `name` (imports are resolved from its
    /// folder).
    pub fn new(name: &str) -> Assembled {
        Assembled {
            name: name.to_string(),
            text: String::new(),
            pieces: vec![],
            segments: vec![],
        }
    }

    /// Appends layers of pieces: each but the last in an opened module.
    pub fn layers(&mut self, layers: &[Vec<&Analysed>]) {
        for (k, layer) in layers.iter().enumerate() {
            if k + 1 == layers.len() {
                for p in layer {
                    self.piece(&p.piece, &[]);
                }
                continue;
            }
            let defines = |m: &str| layer.iter().any(|p| p.names.contains(&format!("m:{m}")));
            let ids: Vec<usize> = layer.iter().map(|p| self.add_piece(&p.piece)).collect();
            let (mut before, mut after) = (vec![], vec![]);
            for (p, id) in layer.iter().zip(&ids) {
                for (r, head) in &p.scope_decls {
                    let late = head.as_ref().is_some_and(|h| h.is_empty() || defines(h));
                    let copies = if late { &mut after } else { &mut before };
                    copies.push((*id, r.clone()));
                }
            }
            for (id, r) in before {
                self.copy(id, r);
            }
            self.generated("open {\n");
            for (p, id) in layer.iter().zip(&ids) {
                self.segment_of(*id, &p.piece.text, &p.edits);
            }
            self.generated("}\n");
            for (id, r) in after {
                self.copy(id, r);
            }
        }
    }

    /// Appends a piece as it is, followed by a line break.
    pub fn piece(&mut self, piece: &Piece, edits: &[(usize, &str)]) {
        let id = self.add_piece(piece);
        self.segment_of(id, &piece.text, edits);
    }

    /// Appends generated text, shown as the piece after it.
    pub fn generated(&mut self, text: &str) {
        self.segments
            .push((self.text.len(), Origin::Generated(None)));
        self.text.push_str(text);
    }

    fn add_piece(&mut self, piece: &Piece) -> usize {
        self.pieces.push(piece.clone());
        self.pieces.len() - 1
    }

    fn segment_of(&mut self, id: usize, text: &str, edits: &[(usize, &str)]) {
        self.segments.push((
            self.text.len(),
            Origin::Piece {
                piece: id,
                offset: 0,
            },
        ));
        let start = self.text.len();
        self.text.push_str(text);
        for (at, with) in edits {
            let r = start + at..start + at + with.len();
            if self.text.get(r.clone()).is_some() {
                self.text.replace_range(r, with);
            }
        }
        self.text.push('\n');
    }

    /// Appends a copy of a range of piece `id`, on a line of its own.
    fn copy(&mut self, id: usize, r: Range<usize>) {
        let Some(text) = self.pieces[id].text.get(r.clone()) else {
            return;
        };
        let text = text.to_string();
        self.segments
            .push((self.text.len(), Origin::Generated(Some((id, r)))));
        self.text.push_str(&text);
        self.text.push('\n');
    }

    /// Moves the diagnostics' spans from the assembled program (file 0 of
    /// `sources`: the first file given to the checker) into a file per
    /// piece, padded with empty lines so that each starts on its
    /// `first_line`.
    pub fn move_spans(
        &self,
        sources: &SourceMap,
        diagnostics: &[Diagnostic],
    ) -> (SourceMap, Vec<Diagnostic>) {
        const ASSEMBLED: FileId = FileId(0);
        let mut map = sources.clone();
        let files: Vec<(FileId, usize)> = self
            .pieces
            .iter()
            .map(|p| {
                let pad = p.first_line - 1;
                (map.add(p.name.clone(), "\n".repeat(pad) + &p.text), pad)
            })
            .collect();
        let span_in = |id: usize, r: Range<usize>| {
            let (file, pad) = files[id];
            let len = self.pieces[id].text.len();
            let a = r.start.min(len);
            let b = r.end.clamp(a, len);
            Span::new(file, a + pad, b + pad)
        };
        // The piece and offset in it of an offset of the assembled text.
        let locate = |at: usize| -> Option<(usize, Range<usize>)> {
            let k = self.segments.iter().rposition(|(s, _)| *s <= at)?;
            match &self.segments[k] {
                (s, Origin::Piece { piece, offset }) => {
                    let o = at - s + offset;
                    Some((*piece, o..o))
                }
                (_, Origin::Generated(Some((piece, r)))) => Some((*piece, r.clone())),
                (_, Origin::Generated(None)) => {
                    self.segments[k + 1..].iter().find_map(|(_, o)| match o {
                        Origin::Piece { piece, .. } => {
                            Some((*piece, 0..self.pieces[*piece].text.len()))
                        }
                        _ => None,
                    })
                }
            }
        };
        let move_span = |s: Span| -> Span {
            if s.file != ASSEMBLED {
                return s;
            }
            let Some((piece, a)) = locate(s.start as usize) else {
                return s;
            };
            if a.start != a.end {
                return span_in(piece, a);
            }
            let end = match locate(s.end as usize) {
                Some((p, b)) if p == piece && b.start >= a.start => b.start,
                _ => self.pieces[piece].text.len(),
            };
            span_in(piece, a.start..end)
        };
        let moved = diagnostics
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d.span = d.span.map(move_span);
                for l in &mut d.labels {
                    l.span = move_span(l.span);
                }
                d
            })
            .collect();
        (map, moved)
    }
}
