//! Fetching packages with the `git` program.
//!
//! A package path `HOST/PATH` (or `HOST/PATH@N`) is the repository
//! `https://HOST/PATH`; `git` is run as a program so that everything a user
//! can `git clone` works, including rewrites by git's own configuration
//! (`url.<base>.insteadOf`) and credential helpers. Git never prompts
//! (`GIT_TERMINAL_PROMPT=0`): a repository that needs a password it does
//! not have fails instead.
//!
//! Each repository is cloned once per [`Fetcher`] (a bare clone in a
//! temporary folder that is removed when the fetcher is dropped), like
//! `futhark pkg`: no state is kept between runs, so nothing can go stale.
//! Everything else is read from the clone without a work tree: the tags
//! (`for-each-ref`), a version's `futhark.pkg` (`cat-file`), and the files
//! of its package folder (`ls-tree` and one `cat-file --batch`).

use crate::manifest::{parse_manifest, Manifest};
use crate::solve::{Dep, Registry};
use crate::version::{commit_of, commit_version, repo_and_majors, Version};
use crate::Error;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Told every git command a [`Fetcher`] runs (for `--verbose`).
pub type Log = Box<dyn FnMut(&str)>;

/// What is known about one package path.
struct PkgInfo {
    /// The bare clone of its repository.
    gitdir: PathBuf,
    /// Its released versions (tags `vX.Y.Z` of its major versions) and
    /// their commits.
    versions: BTreeMap<Version, String>,
}

/// Fetches packages with `git` into a temporary cache, and answers
/// questions about them: their versions, a version's commit, its
/// requirements, its files.
pub struct Fetcher {
    cache: tempfile::TempDir,
    /// Clones by repository (`HOST/PATH` without `@N`).
    clones: HashMap<String, PathBuf>,
    infos: HashMap<String, PkgInfo>,
    /// Manifests by commit.
    manifests: HashMap<(PathBuf, String), Option<Manifest>>,
    log: Option<Log>,
}

impl Fetcher {
    /// A fetcher with an empty cache. `log`, if given, is told every git
    /// command run (for `--verbose`).
    pub fn new(log: Option<Log>) -> Result<Fetcher, Error> {
        let cache = tempfile::Builder::new()
            .prefix("parad-pkg")
            .tempdir()
            .map_err(|e| Error::io("cannot create a temporary folder", e))?;
        Ok(Fetcher {
            cache,
            clones: HashMap::new(),
            infos: HashMap::new(),
            manifests: HashMap::new(),
            log,
        })
    }

    /// Runs git with `args` (in `dir` if given) and returns its standard
    /// output; `input` is its standard input.
    fn git(
        &mut self,
        dir: Option<&Path>,
        args: &[&str],
        input: Option<&[u8]>,
    ) -> Result<Vec<u8>, Error> {
        let shown = format!("git {}", args.join(" "));
        if let Some(log) = &mut self.log {
            log(&format!("Running command: {shown}"));
        }
        let mut cmd = Command::new("git");
        if let Some(d) = dir {
            cmd.arg("-C").arg(d);
        }
        cmd.args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GCM_INTERACTIVE", "never")
            // A repository around the current folder must not interfere.
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_OBJECT_DIRECTORY")
            .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES")
            .env_remove("GIT_NAMESPACE")
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| Error::Git {
            command: shown.clone(),
            detail: format!("cannot run git (is it installed?): {e}"),
        })?;
        let writer = input.map(|bytes| {
            let mut stdin = child.stdin.take().expect("piped stdin");
            let bytes = bytes.to_vec();
            std::thread::spawn(move || {
                let _ = stdin.write_all(&bytes);
            })
        });
        let out = child.wait_with_output().map_err(|e| Error::Git {
            command: shown.clone(),
            detail: e.to_string(),
        })?;
        if let Some(w) = writer {
            let _ = w.join();
        }
        if !out.status.success() {
            return Err(Error::Git {
                command: shown,
                detail: git_message(&out.stderr),
            });
        }
        Ok(out.stdout)
    }

    /// The bare clone of the repository of `path`, cloning it first if
    /// needed.
    fn clone_of(&mut self, path: &str) -> Result<PathBuf, Error> {
        let (repo, _) = repo_and_majors(path);
        if let Some(d) = self.clones.get(repo) {
            return Ok(d.clone());
        }
        let url = format!("https://{repo}");
        let dest = self.cache.path().join(self.clones.len().to_string());
        let dest_s = dest.to_string_lossy().into_owned();
        self.git(
            None,
            &["clone", "--bare", "--quiet", "--", &url, &dest_s],
            None,
        )
        .map_err(|e| Error::Fetch {
            path: path.to_string(),
            url: url.clone(),
            detail: match e {
                Error::Git { detail, .. } => detail,
                e => e.to_string(),
            },
        })?;
        self.clones.insert(repo.to_string(), dest.clone());
        Ok(dest)
    }

    /// The versions of a package and its clone.
    fn info(&mut self, path: &str) -> Result<&PkgInfo, Error> {
        if !self.infos.contains_key(path) {
            let gitdir = self.clone_of(path)?;
            let (_, majors) = repo_and_majors(path);
            let refs = self.git(
                Some(&gitdir),
                &[
                    "for-each-ref",
                    "--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)",
                    "refs/tags",
                ],
                None,
            )?;
            let mut versions = BTreeMap::new();
            for line in String::from_utf8_lossy(&refs).lines() {
                let mut f = line.split('\0');
                let (Some(tag), Some(obj), peeled) = (f.next(), f.next(), f.next()) else {
                    continue;
                };
                let commit = peeled.filter(|p| !p.is_empty()).unwrap_or(obj);
                let Some(v) = tag.strip_prefix('v').and_then(|t| Version::parse(t).ok()) else {
                    continue;
                };
                if majors.contains(&v.major) {
                    versions.insert(v, commit.to_string());
                }
            }
            self.infos
                .insert(path.to_string(), PkgInfo { gitdir, versions });
        }
        Ok(&self.infos[path])
    }

    /// The released versions of a package (oldest first).
    pub fn versions(&mut self, path: &str) -> Result<Vec<Version>, Error> {
        Ok(self.info(path)?.versions.keys().cloned().collect())
    }

    /// The newest version of a package within its major versions: the
    /// newest release, or the pseudo-version of the repository's `HEAD` if
    /// there is none.
    pub fn newest(&mut self, path: &str) -> Result<Version, Error> {
        if let Some(v) = self.info(path)?.versions.keys().next_back() {
            return Ok(v.clone());
        }
        let gitdir = self.info(path)?.gitdir.clone();
        let commit = self
            .resolve(&gitdir, "HEAD")
            .map_err(|_| Error::NoCommits(path.to_string()))?;
        self.pseudo_version(&gitdir, &commit)
    }

    /// The pseudo-version `0.0.0-TIMESTAMP+COMMIT` of a commit.
    fn pseudo_version(&mut self, gitdir: &Path, commit: &str) -> Result<Version, Error> {
        let out = self.git(Some(gitdir), &["show", "-s", "--format=%ct", commit], None)?;
        let secs: i64 = String::from_utf8_lossy(&out)
            .trim()
            .parse()
            .map_err(|_| Error::Git {
                command: format!("git show -s --format=%ct {commit}"),
                detail: "no commit time".into(),
            })?;
        commit_version(&utc_timestamp(secs), commit).map_err(Error::InvalidVersion)
    }

    /// The full hash of a commit named by `rev`.
    fn resolve(&mut self, gitdir: &Path, rev: &str) -> Result<String, Error> {
        let spec = format!("{rev}^{{commit}}");
        let out = self.git(
            Some(gitdir),
            &["rev-parse", "--verify", "--quiet", &spec],
            None,
        )?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }

    /// The commit of a version of a package (a release's tag, or the
    /// commit a pseudo-version names).
    pub fn commit(&mut self, path: &str, version: &Version) -> Result<String, Error> {
        let info = self.info(path)?;
        if let Some(c) = info.versions.get(version) {
            return Ok(c.clone());
        }
        if let Some(hash) = commit_of(version) {
            let gitdir = info.gitdir.clone();
            if hash.chars().all(|c| c.is_ascii_hexdigit()) {
                if let Ok(c) = self.resolve(&gitdir, hash) {
                    return Ok(c);
                }
            }
            return Err(Error::NoCommit {
                path: path.to_string(),
                commit: hash.to_string(),
            });
        }
        let (_, majors) = repo_and_majors(path);
        let mut known = if info.versions.is_empty() {
            format!("Package {path} has no versions.  Invalid package path?")
        } else {
            let vs: Vec<String> = info.versions.keys().map(|v| v.to_string()).collect();
            format!("Known versions: {}", vs.join(", "))
        };
        if !majors.contains(&version.major) {
            known.push_str(&format!(
                "\nFor major version {}, use package path {}@{}",
                version.major,
                repo_and_majors(path).0,
                version.major
            ));
        }
        Err(Error::NoVersion {
            path: path.to_string(),
            version: version.to_string(),
            known,
        })
    }

    /// The `futhark.pkg` of a version of a package (`None` if it has
    /// none).
    pub fn manifest(&mut self, path: &str, version: &Version) -> Result<Option<Manifest>, Error> {
        let commit = self.commit(path, version)?;
        let gitdir = self.info(path)?.gitdir.clone();
        let key = (gitdir.clone(), commit.clone());
        if let Some(m) = self.manifests.get(&key) {
            return Ok(m.clone());
        }
        let listing = self.git(
            Some(&gitdir),
            &["ls-tree", &commit, "--", "futhark.pkg"],
            None,
        )?;
        let m = if listing.is_empty() {
            None
        } else {
            let spec = format!("{commit}:futhark.pkg");
            let bytes = self.git(Some(&gitdir), &["cat-file", "blob", &spec], None)?;
            let text = String::from_utf8(bytes).map_err(|_| Error::DependencyManifest {
                path: path.to_string(),
                version: version.to_string(),
                detail: "futhark.pkg: not UTF-8 text".into(),
            })?;
            Some(
                parse_manifest(&text).map_err(|e| Error::DependencyManifest {
                    path: path.to_string(),
                    version: version.to_string(),
                    detail: format!("futhark.pkg:{}:{}: {}", e.line, e.col, e.message),
                })?,
            )
        };
        self.manifests.insert(key, m.clone());
        Ok(m)
    }

    /// Writes the files of a version of a package (those of the folder
    /// `lib/P/` of its repository, where `P` is the package path its own
    /// `futhark.pkg` declares) into `dest`, which must not exist. Only
    /// regular files are copied (symbolic links and submodules are not).
    pub fn install(&mut self, path: &str, version: &Version, dest: &Path) -> Result<(), Error> {
        let manifest = self
            .manifest(path, version)?
            .ok_or_else(|| Error::NoManifest {
                path: path.to_string(),
                version: version.to_string(),
            })?;
        let own = manifest.package.ok_or_else(|| Error::NoPackagePath {
            path: path.to_string(),
            version: version.to_string(),
        })?;
        let commit = self.commit(path, version)?;
        let gitdir = self.info(path)?.gitdir.clone();
        let prefix = format!("lib/{own}/");
        let listing = self.git(
            Some(&gitdir),
            &["ls-tree", "-r", "-z", &commit, "--", &prefix],
            None,
        )?;
        // (blob, path below the package folder)
        let mut files: Vec<(String, String)> = vec![];
        let mut any = false;
        for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
            any = true;
            let entry = String::from_utf8_lossy(entry);
            let Some((meta, file)) = entry.split_once('\t') else {
                continue;
            };
            let meta: Vec<&str> = meta.split(' ').collect();
            if meta.len() == 3 && meta[1] == "blob" && meta[0] != "120000" {
                if let Some(rel) = file.strip_prefix(&prefix) {
                    files.push((meta[2].to_string(), rel.to_string()));
                }
            }
        }
        if !any {
            return Err(Error::NoPackageDir {
                path: path.to_string(),
                version: version.to_string(),
                dir: prefix,
            });
        }
        std::fs::create_dir_all(dest)
            .map_err(|e| Error::io(format!("cannot create {}", dest.display()), e))?;
        if files.is_empty() {
            return Ok(());
        }
        // Read all blobs in one process.
        let input: String = files.iter().map(|(b, _)| format!("{b}\n")).collect();
        let out = self.git(
            Some(&gitdir),
            &["cat-file", "--batch"],
            Some(input.as_bytes()),
        )?;
        let mut r = BufReader::new(&out[..]);
        for (blob, rel) in &files {
            let mut header = String::new();
            r.read_line(&mut header)
                .map_err(|e| Error::io("reading git cat-file", e))?;
            let size: usize = header
                .trim_end()
                .strip_prefix(blob.as_str())
                .and_then(|h| h.strip_prefix(" blob "))
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| Error::Git {
                    command: "git cat-file --batch".into(),
                    detail: format!("unexpected answer '{}'", header.trim_end()),
                })?;
            let mut content = vec![0; size + 1];
            r.read_exact(&mut content)
                .map_err(|e| Error::io("reading git cat-file", e))?;
            content.pop();
            // Paths from git are relative and without `..` components, but
            // check anyway: nothing may be written outside `dest`.
            let rel_path = Path::new(rel);
            if rel_path
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
            {
                continue;
            }
            let to = dest.join(rel_path);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| Error::io(format!("cannot create {}", parent.display()), e))?;
            }
            std::fs::write(&to, &content)
                .map_err(|e| Error::io(format!("cannot write {}", to.display()), e))?;
        }
        Ok(())
    }
}

impl Registry for Fetcher {
    fn deps(
        &mut self,
        path: &str,
        version: &Version,
        hash: Option<&str>,
    ) -> Result<Vec<Dep>, Error> {
        let commit = self.commit(path, version)?;
        if let Some(h) = hash {
            if !commit.eq_ignore_ascii_case(h) {
                return Err(Error::HashMismatch {
                    path: path.to_string(),
                    version: version.to_string(),
                    actual: commit,
                    expected: h.to_string(),
                });
            }
        }
        let m = self.manifest(path, version)?;
        Ok(m.map(|m| {
            m.required()
                .map(|r| Dep {
                    path: r.path.clone(),
                    version: r.version.clone(),
                    hash: r.hash.clone(),
                })
                .collect()
        })
        .unwrap_or_default())
    }
}

/// Git's error output, trimmed, on one or more lines.
fn git_message(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        "git failed without a message".to_string()
    } else {
        lines.join("\n")
    }
}

/// `YYYYMMDDHHMMSS` of a Unix time, in UTC.
fn utc_timestamp(secs: i64) -> String {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc() {
        assert_eq!(utc_timestamp(0), "19700101000000");
        assert_eq!(utc_timestamp(951_782_400), "20000229000000");
        assert_eq!(utc_timestamp(1_704_164_645), "20240102030405");
        assert_eq!(utc_timestamp(4_102_444_799), "20991231235959");
    }
}
