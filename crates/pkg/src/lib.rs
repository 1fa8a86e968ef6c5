//! Futhark's package manager (`futhark pkg`): the `futhark.pkg` manifest,
//! semantic versions, fetching packages with `git`, minimal version
//! selection, and installing the selected packages under `lib/`.
//!
//! A package is a git repository whose `futhark.pkg` declares its package
//! path `P` (`package github.com/owner/repo`) and whose folder `lib/P/`
//! holds its files; its releases are the tags `vMAJOR.MINOR.PATCH`. A
//! project lists the packages it needs, each with a minimum version and
//! the commit that version had, in the `require` block of its own
//! `futhark.pkg`; [`sync`] installs the packages it needs directly or
//! through other packages under `lib/`, the package `P` in `lib/P/`.
//!
//! The operations work on a project folder and touch only its
//! `futhark.pkg` and `lib/`, and only once everything else succeeded: a
//! manifest is written to `futhark.pkg~new` and renamed over
//! `futhark.pkg`; [`sync`] builds the new tree in `lib~new/`, then swaps
//! it with `lib/` by renames (the old tree is `lib~old/` for a moment,
//! then removed). A failure (a repository that cannot be fetched, a
//! version that does not exist, a malformed manifest, a package without
//! its `lib/P/` folder) leaves both as they were. The project's own
//! package folder (`lib/P/` for its own package path `P`) is the user's
//! work: [`sync`] moves it into the new tree and never overwrites it.
//!
//! The messages written to `out` are those of `futhark pkg` (with
//! `parad pkg sync` as the command to run next).

pub mod git;
pub mod manifest;
pub mod solve;
pub mod version;

pub use git::{Fetcher, Log};
pub use manifest::{parse_manifest, Item, Manifest, ManifestError, Required};
pub use solve::{solve, BuildList, Dep, Registry};
pub use version::{check_path, parse_version, Version};

use std::io::Write;
use std::path::{Path, PathBuf};

/// The name of the manifest.
pub const MANIFEST: &str = "futhark.pkg";

/// Why a package operation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The project's manifest is malformed.
    #[error("{file}:{line}:{col}: {message}")]
    Manifest {
        /// The file, as given.
        file: String,
        /// Line (1-based).
        line: usize,
        /// Column (1-based).
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// The manifest of a package version is malformed.
    #[error("package {path} {version}: {detail}")]
    DependencyManifest {
        /// The package.
        path: String,
        /// Its version.
        version: String,
        /// What is wrong (with the location in its `futhark.pkg`).
        detail: String,
    },
    /// A repository could not be cloned.
    #[error("cannot fetch package {path} from {url}:\n{detail}")]
    Fetch {
        /// The package.
        path: String,
        /// The URL given to git.
        url: String,
        /// Git's message.
        detail: String,
    },
    /// Another git command failed.
    #[error("'{command}' failed:\n{detail}")]
    Git {
        /// The command.
        command: String,
        /// Git's message.
        detail: String,
    },
    /// A package has no such version.
    #[error("package {path} does not have a version {version}.\n{known}")]
    NoVersion {
        /// The package.
        path: String,
        /// The version asked for.
        version: String,
        /// The versions it has, and a note about major versions.
        known: String,
    },
    /// A pseudo-version names a commit the repository does not have.
    #[error("package {path} has no commit {commit}")]
    NoCommit {
        /// The package.
        path: String,
        /// The commit asked for.
        commit: String,
    },
    /// A repository without releases and without commits.
    #[error("package {0} has no released versions and no commits")]
    NoCommits(String),
    /// A package version without a `futhark.pkg`.
    #[error("package {path} {version} has no futhark.pkg (so no package path and no lib/ folder)")]
    NoManifest {
        /// The package.
        path: String,
        /// Its version.
        version: String,
    },
    /// A package version whose `futhark.pkg` has no `package` line.
    #[error("futhark.pkg of {path} {version} does not define a package path")]
    NoPackagePath {
        /// The package.
        path: String,
        /// Its version.
        version: String,
    },
    /// A package version without its package folder.
    #[error("package {path} {version} does not contain a directory {dir}")]
    NoPackageDir {
        /// The package.
        path: String,
        /// Its version.
        version: String,
        /// The folder that was expected.
        dir: String,
    },
    /// A version's commit is not the one the manifest pins.
    #[error(
        "package {path} {version} has commit hash {actual}, but expected {expected} from package manifest"
    )]
    HashMismatch {
        /// The package.
        path: String,
        /// Its version.
        version: String,
        /// Its commit.
        actual: String,
        /// The commit in the manifest.
        expected: String,
    },
    /// `remove` of a package that is not required.
    #[error("no package {0} found in futhark.pkg")]
    NotRequired(String),
    /// `init` where there is a manifest already.
    #[error("{0} already exists")]
    AlreadyExists(String),
    /// A malformed package path.
    #[error("{0}")]
    InvalidPath(String),
    /// A malformed version.
    #[error("{0}")]
    InvalidVersion(String),
    /// No `futhark.pkg` where one is needed.
    #[error("no futhark.pkg in {0} (create one with 'parad pkg init' or 'parad pkg add')")]
    NoProjectManifest(String),
    /// `lib~old` was left by an interrupted sync.
    #[error(
        "{0} exists, left by an interrupted sync: move it back to lib/ (or delete it) and sync again"
    )]
    Interrupted(String),
    /// A file system operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl Error {
    fn io(what: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            what: what.into(),
            source,
        }
    }
}

/// The command to run after changing the manifest.
const REMEMBER: &str = "Remember to run 'parad pkg sync'.";

fn say(out: &mut dyn Write, line: &str) -> Result<(), Error> {
    writeln!(out, "{line}").map_err(|e| Error::io("cannot write the output", e))
}

/// Reads and parses the manifest of the project in `dir` (`None` if there
/// is none).
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, Error> {
    let file = dir.join(MANIFEST);
    let shown = shown(dir, MANIFEST);
    if file.is_dir() {
        return Err(Error::io(
            format!("cannot read {shown}"),
            std::io::Error::other("it is a folder"),
        ));
    }
    let text = match std::fs::read(&file) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| Error::Manifest {
            file: shown.clone(),
            line: 1,
            col: 1,
            message: "not UTF-8 text".into(),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("cannot read {shown}"), e)),
    };
    parse_manifest(&text)
        .map(Some)
        .map_err(|e| Error::Manifest {
            file: shown,
            line: e.line,
            col: e.col,
            message: e.message,
        })
}

/// `name` in `dir` as shown in messages (just `name` in the current
/// folder).
fn shown(dir: &Path, name: &str) -> String {
    if dir == Path::new(".") || dir.as_os_str().is_empty() {
        name.to_string()
    } else {
        dir.join(name).display().to_string()
    }
}

/// Writes the manifest of the project in `dir` (to a temporary file that
/// is then renamed over it).
pub fn write_manifest(dir: &Path, m: &Manifest) -> Result<(), Error> {
    let file = dir.join(MANIFEST);
    let tmp = dir.join(format!("{MANIFEST}~new"));
    std::fs::write(&tmp, m.print())
        .and_then(|()| std::fs::rename(&tmp, &file))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Error::io(format!("cannot write {}", shown(dir, MANIFEST)), e)
        })
}

/// The project's manifest, which must exist.
fn existing_manifest(dir: &Path) -> Result<Manifest, Error> {
    read_manifest(dir)?.ok_or_else(|| {
        Error::NoProjectManifest(if dir == Path::new(".") {
            "the current folder".to_string()
        } else {
            dir.display().to_string()
        })
    })
}

fn valid_path(path: &str) -> Result<(), Error> {
    check_path(path).map_err(|e| {
        Error::InvalidPath(format!(
            "{e}\nNote: package paths are repository URLs without the https:// (github.com/owner/repo)."
        ))
    })
}

/// The requirements of a manifest as the solver takes them.
fn deps_of(m: &Manifest) -> Vec<Dep> {
    m.required()
        .map(|r| Dep {
            path: r.path.clone(),
            version: r.version.clone(),
            hash: r.hash.clone(),
        })
        .collect()
}

/// The commit to pin for a version: none for a pseudo-version (which names
/// its commit already).
fn pin(f: &mut Fetcher, path: &str, v: &Version) -> Result<Option<String>, Error> {
    if version::commit_of(v).is_some() {
        Ok(None)
    } else {
        f.commit(path, v).map(Some)
    }
}

/// `init PATH`: creates `futhark.pkg` for a new package with this path
/// and no requirements, and its folder `lib/PATH/`.
pub fn init(dir: &Path, path: &str, out: &mut dyn Write) -> Result<(), Error> {
    valid_path(path)?;
    let file = dir.join(MANIFEST);
    if file.exists() || file.is_symlink() {
        return Err(Error::AlreadyExists(shown(dir, MANIFEST)));
    }
    let pdir = dir.join("lib").join(path);
    std::fs::create_dir_all(&pdir)
        .map_err(|e| Error::io(format!("cannot create {}", pdir.display()), e))?;
    say(
        out,
        &format!("Created directory {}.", shown(dir, &format!("lib/{path}"))),
    )?;
    write_manifest(dir, &Manifest::new(Some(path.to_string())))?;
    say(out, &format!("Wrote {}.", shown(dir, MANIFEST)))
}

/// `add PATH [VERSION]`: requires a version of a package (the newest if
/// none is given), replacing its earlier requirement. Checks first that
/// the version exists and that all requirements, with their
/// dependencies, can be fetched.
pub fn add(
    dir: &Path,
    f: &mut Fetcher,
    path: &str,
    version: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    valid_path(path)?;
    let version = version
        .map(|v| parse_version(v).map_err(Error::InvalidVersion))
        .transpose()?;
    let mut m = match read_manifest(dir)? {
        Some(m) => m,
        None => {
            say(
                out,
                &format!(
                    "{} not found - pretending it's empty.",
                    shown(dir, MANIFEST)
                ),
            )?;
            Manifest::default()
        }
    };
    let v = match version {
        Some(v) => v,
        None => f.newest(path)?,
    };
    let mut roots: Vec<Dep> = deps_of(&m).into_iter().filter(|d| d.path != path).collect();
    roots.insert(
        0,
        Dep {
            path: path.to_string(),
            version: v.clone(),
            hash: None,
        },
    );
    solve(f, &roots)?;
    let hash = pin(f, path, &v)?;
    let old = m.add(Required {
        path: path.to_string(),
        version: v.clone(),
        hash,
        comment: None,
        line: 0,
    });
    match old {
        Some(old) if old.version == v => say(
            out,
            &format!("Package already at version {v}; nothing to do."),
        )?,
        Some(old) => say(out, &format!("Replaced {path} {} => {v}.", old.version))?,
        None => say(out, &format!("Added new required package {path} {v}."))?,
    }
    write_manifest(dir, &m)?;
    say(out, REMEMBER)
}

/// `remove PATH`: removes the requirement of a package (its files stay in
/// `lib/` until the next sync).
pub fn remove(dir: &Path, path: &str, out: &mut dyn Write) -> Result<(), Error> {
    let mut m = existing_manifest(dir)?;
    let r = m
        .remove(path)
        .ok_or_else(|| Error::NotRequired(path.to_string()))?;
    write_manifest(dir, &m)?;
    say(out, &format!("Removed {path} {}.", r.version))
}

/// `fmt`: rewrites the manifest in the standard layout (see
/// [`Manifest::print`]), comments kept; a manifest already in it is left
/// untouched. A manifest that does not parse is an error and stays as it
/// was.
pub fn fmt(dir: &Path) -> Result<(), Error> {
    let m = existing_manifest(dir)?;
    let text = std::fs::read_to_string(dir.join(MANIFEST))
        .map_err(|e| Error::io(format!("cannot read {}", shown(dir, MANIFEST)), e))?;
    if text == m.print() {
        return Ok(());
    }
    write_manifest(dir, &m)
}

/// `upgrade`: requires the newest version (within its major version) of
/// every required package. Never downgrades.
pub fn upgrade(dir: &Path, f: &mut Fetcher, out: &mut dyn Write) -> Result<(), Error> {
    let m = existing_manifest(dir)?;
    let mut new = m.clone();
    let mut lines = vec![];
    for item in &mut new.items {
        let Item::Require(r) = item else { continue };
        let newest = f.newest(&r.path)?;
        if newest > r.version {
            lines.push(format!("Upgraded {} {} => {newest}.", r.path, r.version));
            r.version = newest;
        }
        r.hash = pin(f, &r.path, &r.version)?;
    }
    for l in &lines {
        say(out, l)?;
    }
    if new == m {
        say(out, "Nothing to upgrade.")
    } else {
        write_manifest(dir, &new)?;
        say(out, REMEMBER)
    }
}

/// `versions PATH`: the released versions of a package, oldest first.
pub fn versions(f: &mut Fetcher, path: &str, out: &mut dyn Write) -> Result<(), Error> {
    valid_path(path)?;
    for v in f.versions(path)? {
        say(out, &v.to_string())?;
    }
    Ok(())
}

/// The build list of the project in `dir`: the packages and versions
/// [`sync`] installs.
pub fn build_list(dir: &Path, f: &mut Fetcher) -> Result<BuildList, Error> {
    let m = existing_manifest(dir)?;
    solve(f, &deps_of(&m))
}

/// `sync`: installs the packages the project needs (directly or through
/// other packages, in the versions minimal version selection chooses)
/// under `lib/`, and removes everything else there except the project's
/// own package folder. `lib/` changes only if every package was fetched.
pub fn sync(dir: &Path, f: &mut Fetcher) -> Result<(), Error> {
    let m = existing_manifest(dir)?;
    let list = solve(f, &deps_of(&m))?;
    let lib = dir.join("lib");
    let new = dir.join("lib~new");
    let old = dir.join("lib~old");
    if old.exists() || old.is_symlink() {
        return Err(Error::Interrupted(old.display().to_string()));
    }
    if lib.exists() && !lib.is_dir() {
        return Err(Error::io(
            format!("cannot replace {}", lib.display()),
            std::io::Error::other("it is not a folder"),
        ));
    }
    remove_tree(&new)?;
    let fill = |f: &mut Fetcher| -> Result<(), Error> {
        std::fs::create_dir(&new)
            .map_err(|e| Error::io(format!("cannot create {}", new.display()), e))?;
        for (p, v) in &list {
            if m.package.as_deref() == Some(p.as_str()) {
                continue; // The project's own files are not replaced.
            }
            f.install(p, v, &new.join(p))?;
        }
        Ok(())
    };
    if let Err(e) = fill(f) {
        let _ = remove_tree(&new);
        return Err(e);
    }
    // Move the project's own package folder into the new tree.
    let own: Option<PathBuf> = m
        .package
        .as_ref()
        .map(PathBuf::from)
        .filter(|p| lib.join(p).is_dir());
    let undo_own = |own: &Option<PathBuf>, from: &Path| {
        if let Some(p) = own {
            let _ = std::fs::rename(from.join(p), lib.join(p));
        }
    };
    if let Some(p) = &own {
        let to = new.join(p);
        let moved = to
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::rename(lib.join(p), &to));
        if let Err(e) = moved {
            let _ = remove_tree(&new);
            return Err(Error::io(
                format!("cannot move {}", lib.join(p).display()),
                e,
            ));
        }
    }
    let had_lib = lib.is_dir();
    if had_lib {
        if let Err(e) = std::fs::rename(&lib, &old) {
            undo_own(&own, &new);
            let _ = remove_tree(&new);
            return Err(Error::io(format!("cannot rename {}", lib.display()), e));
        }
    }
    if let Err(e) = std::fs::rename(&new, &lib) {
        if had_lib {
            let _ = std::fs::rename(&old, &lib);
        }
        undo_own(&own, &new);
        let _ = remove_tree(&new);
        return Err(Error::io(format!("cannot rename {}", new.display()), e));
    }
    if had_lib {
        remove_tree(&old)?;
    }
    Ok(())
}

/// Removes a folder and everything in it, if it exists.
fn remove_tree(p: &Path) -> Result<(), Error> {
    match std::fs::remove_dir_all(p) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(format!("cannot remove {}", p.display()), e)),
    }
}
