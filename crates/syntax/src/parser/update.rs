//! In-place update paths: `a with [i] = v`, `r with x.y = v`, and mixed
//! paths such as `a with [i].x = v` or `let a[i].x = v`.
//!
//! The tree has one node for an index update and one for a field update,
//! so a mixed path becomes nested updates:
//! `a with [i].x = v` is `a with [i] = (a[i] with x = v)`, where the
//! inner `a[i]` is a copy of the outer parts with fresh expression ids.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::visit::walk_exp_mut;
use parad_base::Span;

#[derive(Clone)]
enum Step {
    Index(Vec<DimIndex>),
    Fields(Vec<Ident>),
}

impl<'a> Parser<'a> {
    /// The path and value after `with` (`first_bare`: the first field has
    /// no dot) or after the name in `let a[i] = v`, then builds the update.
    pub(crate) fn update_path(
        &mut self,
        base: Exp,
        first_bare: bool,
        span_start: Span,
    ) -> PResult<Exp> {
        let mut steps: Vec<Step> = vec![];
        let mut first = true;
        loop {
            if self.eat(&Tok::LBracket) {
                let idx = self.slice_body()?;
                // `[i][j]` with `i` a plain index is the same as `[i, j]`.
                match steps.last_mut() {
                    Some(Step::Index(prev))
                        if prev.iter().all(|d| matches!(d, DimIndex::Fix(_))) =>
                    {
                        prev.extend(idx)
                    }
                    _ => steps.push(Step::Index(idx)),
                }
            } else if self.at(&Tok::Dot) || (first && first_bare && !self.at(&Tok::Equals)) {
                self.eat(&Tok::Dot);
                let f = self.field_id("field name or '['")?;
                match steps.last_mut() {
                    Some(Step::Fields(fs)) => fs.push(f),
                    _ => steps.push(Step::Fields(vec![f])),
                }
            } else if steps.is_empty() {
                return self.unexpected("'[' or field name");
            } else {
                break;
            }
            first = false;
        }
        self.expect(&Tok::Equals, "'=' after update path")?;
        let v = if first_bare {
            self.nested(|p| p.binop_above_with())?
        } else {
            self.exp()?
        };
        let span = self.span_from(span_start);
        self.build_update(base, &steps, v, span)
    }

    fn build_update(&mut self, base: Exp, steps: &[Step], v: Exp, span: Span) -> PResult<Exp> {
        let Some((first, rest)) = steps.split_first() else {
            return Ok(v);
        };
        let v = if rest.is_empty() {
            v
        } else {
            let copy = self.fresh_copy(&base);
            let inner = self.step_into(copy, first, span);
            self.build_update(inner, rest, v, span)?
        };
        let kind = match first {
            Step::Index(idx) => ExpKind::Update(Box::new(base), idx.clone(), Box::new(v)),
            Step::Fields(fs) => ExpKind::RecordUpdate(Box::new(base), fs.clone(), Box::new(v)),
        };
        Ok(self.mk(kind, span))
    }

    /// `e[idx]` or `e.x.y`, with fresh ids for the copied indices.
    fn step_into(&mut self, e: Exp, step: &Step, span: Span) -> Exp {
        match step {
            Step::Index(idx) => {
                let mut idx = idx.clone();
                let mut tmp = self.mk(ExpKind::Index(Box::new(e), vec![]), span);
                for d in &mut idx {
                    match d {
                        DimIndex::Fix(x) => self.refresh(x),
                        DimIndex::Slice { start, end, stride } => {
                            for x in [start, end, stride].into_iter().flatten() {
                                self.refresh(x);
                            }
                        }
                    }
                }
                if let ExpKind::Index(_, i) = &mut tmp.kind {
                    *i = idx;
                }
                tmp
            }
            Step::Fields(fs) => {
                let mut e = e;
                for f in fs {
                    e = self.mk(ExpKind::Project(Box::new(e), f.clone()), span);
                }
                e
            }
        }
    }

    fn fresh_copy(&mut self, e: &Exp) -> Exp {
        let mut c = e.clone();
        self.refresh(&mut c);
        c
    }

    /// Gives every expression node below `e` a new id.
    fn refresh(&mut self, e: &mut Exp) {
        let mut next = self.next_id;
        walk_exp_mut(e, &mut |x| {
            x.id = ExpId(next);
            next += 1;
        });
        self.next_id = next;
    }
}
