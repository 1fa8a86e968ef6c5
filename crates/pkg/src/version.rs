//! Versions and package paths.
//!
//! Versions are semantic versions (`MAJOR.MINOR.PATCH`, an optional
//! `-pre.release` and `+build` part), parsed and ordered by the `semver`
//! crate: pre-releases come before their release (`1.0.0-rc.1 < 1.0.0`),
//! numeric identifiers compare as numbers, and the build part only breaks
//! ties (so that the order is total).
//!
//! A release is a git tag `vMAJOR.MINOR.PATCH`. A commit that is no
//! release is named by a *pseudo-version* `0.0.0-YYYYMMDDHHMMSS+COMMIT`:
//! the timestamp (the commit's, in UTC) orders commits of one package, and
//! every release is newer than every pseudo-version.
//!
//! Semantic import versioning: a package path without `@` stands for the
//! major versions 0 and 1 of its repository; `PATH@N` stands for major
//! version `N` of the repository at `PATH` (installed under
//! `lib/PATH@N/`).

pub use semver::Version;

/// Parses a version such as `1.2.3`, `1.0.0-rc.1` or
/// `0.0.0-20240101120000+0123abcd`. The message of the error says what
/// was expected.
pub fn parse_version(text: &str) -> Result<Version, String> {
    Version::parse(text).map_err(|e| {
        format!("'{text}' is not a version of the form MAJOR.MINOR.PATCH such as 1.2.3 ({e})")
    })
}

/// The commit a pseudo-version `0.0.0-TIMESTAMP+COMMIT` names, if it is
/// one.
pub fn commit_of(v: &Version) -> Option<&str> {
    let pseudo = v.major == 0
        && v.minor == 0
        && v.patch == 0
        && !v.pre.is_empty()
        && !v.pre.as_str().contains('.')
        && !v.build.is_empty();
    pseudo.then(|| v.build.as_str())
}

/// The pseudo-version of a commit made at `timestamp`
/// (`YYYYMMDDHHMMSS`, UTC).
pub fn commit_version(timestamp: &str, commit: &str) -> Result<Version, String> {
    parse_version(&format!("0.0.0-{timestamp}+{commit}"))
}

/// The repository (without a scheme) and the major versions a package path
/// stands for: `github.com/a/b` is major 0 or 1 of `github.com/a/b`,
/// `github.com/a/b@2` major 2 of it.
pub fn repo_and_majors(path: &str) -> (&str, Vec<u64>) {
    if let Some((repo, major)) = path.rsplit_once('@') {
        if let Ok(m) = major.parse::<u64>() {
            if major.chars().all(|c| c.is_ascii_digit()) {
                return (repo, vec![m]);
            }
        }
    }
    (path, vec![0, 1])
}

/// Checks a package path: a host name with a dot, then at least two more
/// components (`github.com/owner/repo`), of letters, digits, `-`, `_`, `.`
/// and `~`, optionally followed by `@MAJOR` (semantic import
/// versioning), where `MAJOR` is at least 2. The error says what was
/// expected.
pub fn check_path(p: &str) -> Result<(), String> {
    let bad = || format!("expected a package path such as github.com/owner/repo, found '{p}'");
    let base = match p.rsplit_once('@') {
        Some((base, major)) => {
            let digits = !major.is_empty() && major.chars().all(|c| c.is_ascii_digit());
            if !digits {
                return Err(bad());
            }
            match major.parse::<u64>() {
                Ok(m) if m >= 2 && !major.starts_with('0') => {}
                _ => {
                    return Err(format!(
                        "'{p}': a major version in a package path is written @2, @3, ... \
                         (major versions 0 and 1 have none)"
                    ))
                }
            }
            base
        }
        None => p,
    };
    let parts: Vec<&str> = base.split('/').collect();
    let ok_part = |s: &&str| {
        !s.is_empty()
            && *s != "."
            && *s != ".."
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'))
    };
    if parts.len() >= 3 && parts[0].contains('.') && parts.iter().all(ok_part) {
        Ok(())
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        parse_version(s).unwrap()
    }

    #[test]
    fn semver_ordering() {
        let ordered = [
            "0.0.0-20190101000000+aaaa",
            "0.0.0-20200101000000+0000",
            "0.1.0",
            "0.2.0",
            "0.10.0",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "2.0.0",
        ];
        for w in ordered.windows(2) {
            assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
        }
        assert_eq!(v("1.2.3").to_string(), "1.2.3");
        assert_eq!(
            v("0.0.0-20200101000000+00ab").to_string(),
            "0.0.0-20200101000000+00ab"
        );
    }

    #[test]
    fn malformed_versions_are_rejected() {
        for bad in [
            "1.2", "1", "v1.2.3", "1.2.3.4", "01.2.3", "1.2.x", "", "1.2.3-",
        ] {
            let e = parse_version(bad).unwrap_err();
            assert!(e.contains("MAJOR.MINOR.PATCH"), "{bad}: {e}");
        }
    }

    #[test]
    fn pseudo_versions() {
        let p = commit_version("20240102030405", "0123abcd").unwrap();
        assert_eq!(p.to_string(), "0.0.0-20240102030405+0123abcd");
        assert_eq!(commit_of(&p), Some("0123abcd"));
        assert_eq!(commit_of(&v("0.1.0")), None);
        assert_eq!(commit_of(&v("0.0.0-rc.1+abc")), None);
        assert_eq!(commit_of(&v("0.0.0-2024")), None);
        assert!(p < v("0.0.1"));
    }

    #[test]
    fn paths_and_major_versions() {
        assert_eq!(
            repo_and_majors("github.com/a/b"),
            ("github.com/a/b", vec![0, 1])
        );
        assert_eq!(
            repo_and_majors("github.com/a/b@2"),
            ("github.com/a/b", vec![2])
        );
        assert!(check_path("github.com/a/b").is_ok());
        assert!(check_path("gitlab.com/a/b/c").is_ok());
        assert!(check_path("github.com/a/b@3").is_ok());
        for bad in [
            "github.com/a",
            "github/a/b",
            "github.com//b",
            "github.com/../b",
            "github.com/a/b@",
            "github.com/a/b@x",
            "github.com/a/b@1",
            "github.com/a/b@02",
            "https://github.com/a/b",
            "github.com/a b/c",
        ] {
            assert!(check_path(bad).is_err(), "{bad}");
        }
    }
}
