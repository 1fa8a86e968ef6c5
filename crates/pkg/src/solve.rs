//! Minimal version selection (MVS), as in Go's modules and `futhark pkg`.
//!
//! Every requirement names the *oldest* acceptable version of a package;
//! any newer version with the same major version is assumed compatible.
//! The solver walks the graph of (package, version) nodes reachable from
//! the project's requirements, where the edges of a node are the
//! requirements in that version's `futhark.pkg`, and selects for every
//! package the newest version any visited node asks for: the oldest
//! version that satisfies everybody. The build list then keeps only the
//! packages still reachable from the project through the selected
//! versions (a package that only a superseded version needed is dropped).
//! The result is deterministic: it does not depend on the order in which
//! requirements are listed or fetched.

use crate::version::Version;
use crate::Error;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// A requirement: a package, its minimum version and optionally the
/// commit that version must have.
#[derive(Clone, Debug, PartialEq)]
pub struct Dep {
    /// The package path.
    pub path: String,
    /// The minimum version.
    pub version: Version,
    /// The expected commit of that version.
    pub hash: Option<String>,
}

/// The chosen version of every package to install.
pub type BuildList = BTreeMap<String, Version>;

/// Where the solver learns the requirements of a package version.
pub trait Registry {
    /// The requirements of `path` at `version`, checking that the version
    /// exists and, if `hash` is given, that it is that commit.
    fn deps(
        &mut self,
        path: &str,
        version: &Version,
        hash: Option<&str>,
    ) -> Result<Vec<Dep>, Error>;
}

/// Selects the versions to install for the requirements `roots`.
pub fn solve(reg: &mut impl Registry, roots: &[Dep]) -> Result<BuildList, Error> {
    let mut deps_of: HashMap<(String, Version), Vec<Dep>> = HashMap::new();
    let mut asked: BTreeSet<(String, Version, Option<String>)> = BTreeSet::new();
    let mut selected: BuildList = BTreeMap::new();
    let mut work: VecDeque<Dep> = roots.iter().cloned().collect();
    while let Some(d) = work.pop_front() {
        if !asked.insert((d.path.clone(), d.version.clone(), d.hash.clone())) {
            continue;
        }
        let key = (d.path.clone(), d.version.clone());
        let known = deps_of.contains_key(&key);
        if !known || d.hash.is_some() {
            let deps = reg.deps(&d.path, &d.version, d.hash.as_deref())?;
            if !known {
                work.extend(deps.iter().cloned());
                deps_of.insert(key, deps);
            }
        }
        match selected.get(&d.path) {
            Some(v) if *v >= d.version => {}
            _ => {
                selected.insert(d.path, d.version);
            }
        }
    }
    // Keep what the selected versions still reach.
    let mut keep: BuildList = BTreeMap::new();
    let mut work: VecDeque<&str> = roots.iter().map(|d| d.path.as_str()).collect();
    while let Some(p) = work.pop_front() {
        if keep.contains_key(p) {
            continue;
        }
        let v = &selected[p];
        keep.insert(p.to_string(), v.clone());
        work.extend(
            deps_of[&(p.to_string(), v.clone())]
                .iter()
                .map(|d| d.path.as_str()),
        );
    }
    Ok(keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::parse_version;

    /// Requirements of package versions given as a table.
    struct Table {
        deps: HashMap<(String, Version), Vec<Dep>>,
        asked: Vec<String>,
    }

    fn v(s: &str) -> Version {
        parse_version(s).unwrap()
    }

    fn dep(p: &str, ver: &str) -> Dep {
        Dep {
            path: p.into(),
            version: v(ver),
            hash: None,
        }
    }

    /// A package, a version and its requirements.
    type Row<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

    impl Table {
        fn new(rows: &[Row]) -> Table {
            Table {
                deps: rows
                    .iter()
                    .map(|(p, ver, ds)| {
                        (
                            (p.to_string(), v(ver)),
                            ds.iter().map(|(p, ver)| dep(p, ver)).collect(),
                        )
                    })
                    .collect(),
                asked: vec![],
            }
        }
    }

    impl Registry for Table {
        fn deps(
            &mut self,
            path: &str,
            version: &Version,
            hash: Option<&str>,
        ) -> Result<Vec<Dep>, Error> {
            self.asked.push(format!("{path} {version}"));
            if let Some(h) = hash {
                if h != "good" {
                    return Err(Error::HashMismatch {
                        path: path.into(),
                        version: version.to_string(),
                        actual: "good".into(),
                        expected: h.into(),
                    });
                }
            }
            self.deps
                .get(&(path.to_string(), version.clone()))
                .cloned()
                .ok_or_else(|| Error::NoVersion {
                    path: path.into(),
                    version: version.to_string(),
                    known: String::new(),
                })
        }
    }

    fn list(b: &BuildList) -> Vec<String> {
        b.iter().map(|(p, v)| format!("{p} {v}")).collect()
    }

    #[test]
    fn the_newest_minimum_wins() {
        // a/a 1.0.0 needs c 1.1.0; b 1.0.0 needs c 1.2.0; the project
        // asks for c 1.0.0 itself.
        let mut t = Table::new(&[
            ("x.org/p/a", "1.0.0", &[("x.org/p/c", "1.1.0")]),
            ("x.org/p/b", "1.0.0", &[("x.org/p/c", "1.2.0")]),
            ("x.org/p/c", "1.0.0", &[]),
            ("x.org/p/c", "1.1.0", &[]),
            ("x.org/p/c", "1.2.0", &[]),
            ("x.org/p/c", "1.3.0", &[]),
        ]);
        let roots = [
            dep("x.org/p/c", "1.0.0"),
            dep("x.org/p/a", "1.0.0"),
            dep("x.org/p/b", "1.0.0"),
        ];
        let b = solve(&mut t, &roots).unwrap();
        assert_eq!(
            list(&b),
            ["x.org/p/a 1.0.0", "x.org/p/b 1.0.0", "x.org/p/c 1.2.0"]
        );
        // The order of the requirements does not matter.
        let mut rev = roots.to_vec();
        rev.reverse();
        assert_eq!(solve(&mut t, &rev).unwrap(), b);
    }

    #[test]
    fn packages_only_superseded_versions_need_are_dropped() {
        let mut t = Table::new(&[
            ("x.org/p/a", "1.0.0", &[("x.org/p/c", "1.0.0")]),
            ("x.org/p/b", "1.0.0", &[("x.org/p/c", "1.1.0")]),
            ("x.org/p/c", "1.0.0", &[("x.org/p/old", "0.1.0")]),
            ("x.org/p/c", "1.1.0", &[("x.org/p/d@2", "2.0.0")]),
            ("x.org/p/old", "0.1.0", &[("x.org/p/d@2", "2.5.0")]),
            ("x.org/p/d@2", "2.0.0", &[]),
            ("x.org/p/d@2", "2.5.0", &[]),
        ]);
        let b = solve(
            &mut t,
            &[dep("x.org/p/a", "1.0.0"), dep("x.org/p/b", "1.0.0")],
        )
        .unwrap();
        // old is gone, but the version of d it asked for stays (it
        // satisfies everybody).
        assert_eq!(
            list(&b),
            [
                "x.org/p/a 1.0.0",
                "x.org/p/b 1.0.0",
                "x.org/p/c 1.1.0",
                "x.org/p/d@2 2.5.0"
            ]
        );
    }

    #[test]
    fn cycles_terminate_and_each_version_is_asked_once() {
        let mut t = Table::new(&[
            ("x.org/p/a", "1.0.0", &[("x.org/p/b", "1.0.0")]),
            ("x.org/p/b", "1.0.0", &[("x.org/p/a", "1.0.0")]),
        ]);
        let b = solve(&mut t, &[dep("x.org/p/a", "1.0.0")]).unwrap();
        assert_eq!(list(&b), ["x.org/p/a 1.0.0", "x.org/p/b 1.0.0"]);
        assert_eq!(t.asked, ["x.org/p/a 1.0.0", "x.org/p/b 1.0.0"]);
    }

    #[test]
    fn missing_versions_and_wrong_hashes_fail() {
        let mut t = Table::new(&[("x.org/p/a", "1.0.0", &[("x.org/p/b", "9.0.0")])]);
        let e = solve(&mut t, &[dep("x.org/p/a", "1.0.0")]).unwrap_err();
        assert!(
            matches!(e, Error::NoVersion { ref path, .. } if path == "x.org/p/b"),
            "{e}"
        );
        let mut t = Table::new(&[("x.org/p/a", "1.0.0", &[])]);
        let mut d = dep("x.org/p/a", "1.0.0");
        d.hash = Some("good".into());
        assert!(solve(&mut t, &[d.clone()]).is_ok());
        d.hash = Some("bad".into());
        assert!(matches!(
            solve(&mut t, &[d]),
            Err(Error::HashMismatch { .. })
        ));
        assert!(solve(&mut t, &[]).unwrap().is_empty());
    }
}
