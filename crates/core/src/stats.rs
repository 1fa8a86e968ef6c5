//! How big a function is: its statements at any depth, by kind. `parad
//! dump --stats` prints these, so that what a pass does to a program's
//! size (the optimiser's effect on a gradient, say) can be read in one
//! table.

use crate::ir::{BasicOp, Exp, FunDef, Soac};
use crate::walk;
use std::fmt;

/// Statement counts of one function, nested bodies included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub stms: usize,
    pub maps: usize,
    pub reduces: usize,
    pub scans: usize,
    pub hists: usize,
    pub scatters: usize,
    pub withaccs: usize,
    pub scremas: usize,
    pub upds: usize,
    pub loops: usize,
    pub ifs: usize,
}

impl Stats {
    pub fn of_fun(f: &FunDef) -> Stats {
        let mut s = Stats::default();
        walk::body_stms(&f.body, |st| {
            s.stms += 1;
            match &st.exp {
                Exp::Soac(Soac::Map(_)) => s.maps += 1,
                Exp::Soac(Soac::Reduce(_)) => s.reduces += 1,
                Exp::Soac(Soac::Scan(_)) => s.scans += 1,
                Exp::Soac(Soac::Hist(_)) => s.hists += 1,
                Exp::Soac(Soac::Scatter(_)) => s.scatters += 1,
                Exp::Soac(Soac::WithAcc(_)) => s.withaccs += 1,
                Exp::Soac(Soac::Screma(_)) => s.scremas += 1,
                Exp::Basic(BasicOp::Upd { .. }) => s.upds += 1,
                Exp::Loop(_) => s.loops += 1,
                Exp::If(_) => s.ifs += 1,
                _ => {}
            }
        });
        s
    }

    /// All SOAC statements.
    pub fn soacs(&self) -> usize {
        self.maps
            + self.reduces
            + self.scans
            + self.hists
            + self.scatters
            + self.withaccs
            + self.scremas
    }

    /// The header of the table [`Stats`]'s `Display` writes rows of.
    pub const HEADER: &'static str =
        "stms\tsoacs\tmap\treduce\tscan\thist\tscatter\twithacc\tscrema\tupd\tloop\tif";
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.stms,
            self.soacs(),
            self.maps,
            self.reduces,
            self.scans,
            self.hists,
            self.scatters,
            self.withaccs,
            self.scremas,
            self.upds,
            self.loops,
            self.ifs
        )
    }
}
