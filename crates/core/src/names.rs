//! Interned names and unique variable names.
//!
//! A [`VName`] is an interned base name plus a numeric id; the id alone
//! makes it unique within a program, the base keeps printed IR readable
//! (`x_12`). Both are `Copy`, so IR-building code never clones names.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// An interned string (function names, base names of variables).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

#[derive(Default)]
struct Interner {
    strings: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

fn interner() -> &'static Mutex<Interner> {
    static I: OnceLock<Mutex<Interner>> = OnceLock::new();
    I.get_or_init(Default::default)
}

impl Symbol {
    pub fn intern(s: &str) -> Symbol {
        let mut i = interner().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = i.ids.get(s) {
            return Symbol(id);
        }
        // Names live as long as the compiler; leaking gives `&'static str`.
        let s: &'static str = Box::leak(s.to_owned().into_boxed_str());
        let id = i.strings.len() as u32;
        i.strings.push(s);
        i.ids.insert(s, id);
        Symbol(id)
    }

    pub fn as_str(self) -> &'static str {
        let i = interner().lock().unwrap_or_else(|e| e.into_inner());
        i.strings[self.0 as usize]
    }
}

impl From<&str> for Symbol {
    fn from(s: &str) -> Symbol {
        Symbol::intern(s)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// A unique variable name, printed `base_id`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VName {
    pub base: Symbol,
    pub id: u32,
}

impl fmt::Display for VName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.base, self.id)
    }
}

impl fmt::Debug for VName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Hands out fresh ids. A program carries its name source so that every
/// pass can keep creating names that do not clash with existing ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameSource {
    next: u32,
}

impl NameSource {
    pub fn new() -> NameSource {
        NameSource::default()
    }

    /// A name source whose ids start at `next`.
    pub fn starting_at(next: u32) -> NameSource {
        NameSource { next }
    }

    pub fn fresh(&mut self, base: &str) -> VName {
        self.fresh_sym(Symbol::intern(base))
    }

    pub fn fresh_sym(&mut self, base: Symbol) -> VName {
        let id = self.next;
        self.next += 1;
        VName { base, id }
    }

    /// A new name with the same base as `v` (e.g. for copies made by a pass).
    pub fn fresh_like(&mut self, v: VName) -> VName {
        self.fresh_sym(v.base)
    }

    /// The id the next fresh name will get.
    pub fn peek(&self) -> u32 {
        self.next
    }

    /// Makes sure future names do not clash with an id seen elsewhere.
    pub fn reserve(&mut self, id: u32) {
        self.next = self.next.max(id + 1);
    }
}
