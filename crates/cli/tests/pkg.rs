//! Packages in the `futhark pkg` layout: `parad pkg check` and imports of
//! `lib/github.com/owner/repo/...`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn parad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(args)
        .env("PARAD_BACKEND", "interp")
        .output()
        .expect("run parad")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!e.contains("panicked"), "parad panicked:\n{e}");
    e
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The project's own package test folder.
fn modules_pkg() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/modules_pkg")
}

#[test]
fn the_test_package_is_installed() {
    let o = parad(&["pkg", "check", s(&modules_pkg())]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("github.com/parad-tests/mini 0.1.0: installed"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn missing_packages_are_listed_and_fail() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "futhark.pkg",
        "-- a project\npackage github.com/me/proj\nrequire {\n  github.com/a/here 1.0.0 #0123456789abcdef\n  \
         github.com/a/gone 0.2.1\n  gitlab.com/b/c/also-gone 2.0.0-rc1\n}\n",
    );
    write(d.path(), "lib/github.com/a/here/here.fut", "def x = 1i32\n");
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let err = stderr(&o);
    assert!(out.contains("github.com/a/here 1.0.0: installed"), "{out}");
    assert!(out.contains("github.com/a/gone 0.2.1: missing"), "{out}");
    assert!(
        err.contains("2 of the 3 package(s)")
            && err.contains("github.com/a/gone 0.2.1 (required on line 5)")
            && err.contains("gitlab.com/b/c/also-gone 2.0.0-rc1 (required on line 6)")
            && err.contains("futhark pkg sync"),
        "{err}"
    );
    // Installing them makes the check pass.
    write(d.path(), "lib/github.com/a/gone/gone.fut", "def y = 2i32\n");
    write(
        d.path(),
        "lib/gitlab.com/b/c/also-gone/g.fut",
        "def z = 3i32\n",
    );
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn the_folder_defaults_to_the_current_one() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "futhark.pkg", "require {\n}\n");
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["pkg", "check"])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no packages required"),
        "{}",
        stdout(&o)
    );
}

/// `parad pkg fmt` in `dir`.
fn pkg_fmt(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["pkg", "fmt"])
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn fmt_rewrites_the_manifest_in_the_standard_layout() {
    let d = tempfile::tempdir().unwrap();
    let file = write(
        d.path(),
        "futhark.pkg",
        "-- my package\npackage   example.org/me/x   -- the path\n\n\nrequire {\n      \
         example.org/t/sorts 0.4.0 #0123456789abcdef0123456789abcdef01234567 -- sorting\n\
         -- a comment\n   example.org/t/seg   0.3.2\n}\n",
    );
    let o = pkg_fmt(d.path());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let formatted = "-- my package\npackage example.org/me/x -- the path\n\nrequire {\n  \
                     example.org/t/sorts 0.4.0 #0123456789abcdef0123456789abcdef01234567 -- sorting\n  \
                     -- a comment\n  example.org/t/seg 0.3.2\n}\n";
    assert_eq!(std::fs::read_to_string(&file).unwrap(), formatted);
    // A fixed point.
    let o = pkg_fmt(d.path());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), formatted);
    // A manifest that does not parse is an error and stays as it was.
    std::fs::write(&file, "require { x\n").unwrap();
    let o = pkg_fmt(d.path());
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("futhark.pkg:1:11"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "require { x\n");
    // No manifest: an error.
    std::fs::remove_file(&file).unwrap();
    let o = pkg_fmt(d.path());
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no futhark.pkg"), "{}", stderr(&o));
}

#[test]
fn malformed_manifests_are_errors_with_line_and_column() {
    let d = tempfile::tempdir().unwrap();
    let cases = [
        (
            "require {\n  github.com/a/b 1.2\n}\n",
            "futhark.pkg:2:18:",
            "version",
        ),
        (
            "require {\n  github.com/a/b 1.2.3\n",
            "futhark.pkg:2:",
            "'}'",
        ),
        (
            "require {\n\tnot-a-path 1.0.0\n}\n",
            "futhark.pkg:2:2:",
            "package path",
        ),
        (
            "require {\n  github.com/a/b 1.0.0 #zz\n}\n",
            "futhark.pkg:2:24:",
            "hash",
        ),
        (
            "needs {\n}\n",
            "futhark.pkg:1:1:",
            "expected 'package' or 'require'",
        ),
        (
            "require {\n  github.com/a/b 1.0.0\n  github.com/a/b 1.0.1\n}\n",
            "futhark.pkg:3:3:",
            "twice",
        ),
    ];
    for (text, at, what) in cases {
        write(d.path(), "futhark.pkg", text);
        let o = parad(&["pkg", "check", s(d.path())]);
        assert_eq!(code(&o), 1, "{text}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: ") && err.contains(at) && err.contains(what),
            "{text}: {err}"
        );
    }
    std::fs::write(d.path().join("futhark.pkg"), [0xffu8, 0xfe]).unwrap();
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
}

#[test]
fn no_manifest_or_no_folder_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let o = parad(&["pkg", "check", s(d.path())]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no futhark.pkg in"), "{}", stderr(&o));
    let o = parad(&["pkg", "check", s(&d.path().join("nope"))]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("is not a folder"), "{}", stderr(&o));
}

#[test]
fn importing_a_package_resolves_relative_to_the_importing_file() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "proj/lib/github.com/o/r/r.fut",
        "import \"helper\"\ndef triple (x: i32) : i32 = 3 * helper x\n",
    );
    write(
        d.path(),
        "proj/lib/github.com/o/r/helper.fut",
        "def helper (x: i32) : i32 = x\n",
    );
    let p = write(
        d.path(),
        "proj/main.fut",
        "import \"lib/github.com/o/r/r\"\nentry main (x: i32) : i32 = triple x\n",
    );
    // Run from another folder: imports follow the file, not the working
    // folder.
    let mut child = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["run", "--backend", "interp", s(&p)])
        .current_dir(d.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"5");
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "15i32");
}

#[test]
fn importing_a_package_that_is_not_installed_says_how_to_install_it() {
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "main.fut",
        "import \"lib/github.com/o/absent/absent\"\nentry main (x: i32) : i32 = x\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("main.fut:1:1")
            && err.contains("package 'github.com/o/absent' is not installed")
            && err.contains("futhark pkg sync"),
        "{err}"
    );
    // An installed package without the file: no such note.
    write(
        d.path(),
        "lib/github.com/o/absent/other.fut",
        "def x = 1i32\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("cannot import") && !err.contains("not installed"),
        "{err}"
    );
    // A relative import that is not a package: no such note either.
    let p = write(
        d.path(),
        "m2.fut",
        "import \"lib/local/thing\"\ndef y = 1i32\n",
    );
    let o = parad(&["check", s(&p)]);
    assert_eq!(code(&o), 1);
    assert!(!stderr(&o).contains("not installed"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------
// `parad pkg init/add/remove/sync/upgrade/versions` against local git
// repositories: `https://example.org/t/NAME` is mapped to a repository in
// a temporary folder by git's `url.<base>.insteadOf`.

/// Runs git for the fixtures, with a fixed identity and dates.
fn git(dir: &Path, config: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", config)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.org")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.org")
        .env("GIT_AUTHOR_DATE", "2024-01-02T03:04:05Z")
        .env("GIT_COMMITTER_DATE", "2024-01-02T03:04:05Z")
        .output()
        .expect("run git");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Local repositories standing for packages on `example.org`.
struct Fixture {
    tmp: tempfile::TempDir,
    /// A git configuration with the `insteadOf` rewrite.
    config: PathBuf,
}

/// One commit of a fixture repository: files to write (`None` deletes) and
/// an optional tag.
type Step<'a> = (&'a [(&'a str, Option<&'a str>)], Option<&'a str>);

const BAR_PKG: &str = "package example.org/t/bar\n\nrequire {\n}\n";

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let config = tmp.path().join("gitconfig");
        std::fs::write(
            &config,
            format!(
                "[url \"file://{}/repos/\"]\n\tinsteadOf = https://example.org/\n",
                tmp.path().display()
            ),
        )
        .unwrap();
        let f = Fixture { tmp, config };
        f.repo(
            "t/bar",
            &[
                (
                    &[
                        ("futhark.pkg", Some(BAR_PKG)),
                        ("lib/example.org/t/bar/bar.fut", Some("def bar = 1\n")),
                        ("README", Some("not installed\n")),
                    ],
                    Some("v0.1.0"),
                ),
                (
                    &[("lib/example.org/t/bar/bar.fut", Some("def bar = 2\n"))],
                    Some("v0.2.0"),
                ),
                (
                    &[("lib/example.org/t/bar/bar.fut", Some("def bar = 3\n"))],
                    Some("v1.0.0"),
                ),
                (&[("lib/example.org/t/bar/x.fut", Some("-- wip\n"))], None),
                (
                    &[
                        (
                            "futhark.pkg",
                            Some("package example.org/t/bar@2\n\nrequire {\n}\n"),
                        ),
                        ("lib/example.org/t/bar/bar.fut", None),
                        ("lib/example.org/t/bar/x.fut", None),
                        ("lib/example.org/t/bar@2/bar.fut", Some("def bar = 20\n")),
                    ],
                    Some("v2.0.0"),
                ),
            ],
        );
        let bar_020 = f.commit("t/bar", "v0.2.0");
        let foo_pkg_1 =
            "package example.org/t/foo\n\nrequire {\n  example.org/t/bar 0.1.0\n}\n".to_string();
        let foo_pkg_2 = format!(
            "package example.org/t/foo\n\nrequire {{\n  example.org/t/bar 0.2.0 #{bar_020}\n}}\n"
        );
        f.repo(
            "t/foo",
            &[
                (
                    &[
                        ("futhark.pkg", Some(&foo_pkg_1)),
                        (
                            "lib/example.org/t/foo/foo.fut",
                            Some("import \"../bar/bar\"\ndef foo = bar + 10\n"),
                        ),
                        ("lib/example.org/t/foo/sub/deep.fut", Some("def deep = 0\n")),
                    ],
                    Some("v0.1.0"),
                ),
                (&[("futhark.pkg", Some(&foo_pkg_2))], Some("v0.2.0")),
            ],
        );
        f.repo(
            "t/nolib",
            &[(
                &[
                    ("futhark.pkg", Some("package example.org/t/nolib\n")),
                    ("src/x.fut", Some("def x = 0\n")),
                ],
                Some("v0.1.0"),
            )],
        );
        f.repo(
            "t/head",
            &[
                (
                    &[
                        ("futhark.pkg", Some("package example.org/t/head\n")),
                        ("lib/example.org/t/head/h.fut", Some("def h = 1\n")),
                    ],
                    None,
                ),
                (
                    &[("lib/example.org/t/head/h.fut", Some("def h = 2\n"))],
                    None,
                ),
            ],
        );
        f
    }

    fn repos(&self) -> PathBuf {
        self.tmp.path().join("repos")
    }

    fn repo(&self, name: &str, steps: &[Step]) {
        let dir = self.repos().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        git(&dir, &self.config, &["init", "-q", "-b", "main"]);
        for (files, tag) in steps {
            for (file, text) in files.iter() {
                match text {
                    Some(t) => {
                        write(&dir, file, t);
                    }
                    None => std::fs::remove_file(dir.join(file)).unwrap(),
                }
            }
            git(&dir, &self.config, &["add", "-A"]);
            git(&dir, &self.config, &["commit", "-q", "-m", "step"]);
            // Annotated tags in bar, lightweight ones elsewhere.
            match tag {
                Some(t) if name == "t/bar" => {
                    git(&dir, &self.config, &["tag", "-a", "-m", t, t]);
                }
                Some(t) => {
                    git(&dir, &self.config, &["tag", t]);
                }
                None => {}
            }
        }
    }

    /// The commit a tag (or `HEAD`) of a fixture repository names.
    fn commit(&self, name: &str, rev: &str) -> String {
        git(
            &self.repos().join(name),
            &self.config,
            &["rev-parse", &format!("{rev}^{{commit}}")],
        )
    }

    /// A new, empty project folder.
    fn project(&self, name: &str) -> PathBuf {
        let p = self.tmp.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    /// Runs `parad ARGS` in `dir` with the fixture's git configuration.
    fn parad(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_parad"))
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", &self.config)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.tmp.path())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run parad")
    }

    /// Runs `parad ARGS` in `dir`, which must succeed; its stdout.
    fn ok(&self, dir: &Path, args: &[&str]) -> String {
        let o = self.parad(dir, args);
        assert_eq!(code(&o), 0, "parad {args:?}: {}", stderr(&o));
        stdout(&o)
    }

    /// Runs `parad ARGS` in `dir`, which must fail with status 1; its
    /// stderr.
    fn fails(&self, dir: &Path, args: &[&str]) -> String {
        let o = self.parad(dir, args);
        let err = stderr(&o);
        assert_eq!(code(&o), 1, "parad {args:?} should fail: {}", stdout(&o));
        assert!(err.starts_with("error: "), "{err}");
        err
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every file under `dir` with its contents, sorted.
fn tree(dir: &Path) -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((rel, read(&p)));
            }
        }
    }
    let mut out = vec![];
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn init_add_sync_remove_and_upgrade() {
    let f = Fixture::new();
    let p = f.project("proj");
    let out = f.ok(&p, &["pkg", "init", "example.org/me/proj"]);
    assert_eq!(
        out,
        "Created directory lib/example.org/me/proj.\nWrote futhark.pkg.\n"
    );
    assert_eq!(
        read(&p.join("futhark.pkg")),
        "package example.org/me/proj\n\nrequire {\n}\n"
    );
    assert!(p.join("lib/example.org/me/proj").is_dir());
    let err = f.fails(&p, &["pkg", "init", "example.org/me/other"]);
    assert!(err.contains("futhark.pkg already exists"), "{err}");

    // Add a given version; the manifest pins its commit.
    let foo_010 = f.commit("t/foo", "v0.1.0");
    let out = f.ok(&p, &["pkg", "add", "example.org/t/foo", "0.1.0"]);
    assert_eq!(
        out,
        "Added new required package example.org/t/foo 0.1.0.\nRemember to run 'parad pkg sync'.\n"
    );
    assert_eq!(
        read(&p.join("futhark.pkg")),
        format!(
            "package example.org/me/proj\n\nrequire {{\n  example.org/t/foo 0.1.0 #{foo_010}\n}}\n"
        )
    );

    // Sync installs foo and, transitively, bar; it keeps the project's own
    // files and removes everything else.
    write(&p, "lib/example.org/me/proj/mine.fut", "def mine = 0\n");
    write(&p, "lib/stray.txt", "gone\n");
    write(&p, "lib/example.org/t/foo/old.fut", "gone\n");
    assert_eq!(f.ok(&p, &["pkg", "sync"]), "");
    assert_eq!(
        tree(&p.join("lib")),
        files(&[
            ("example.org/me/proj/mine.fut", "def mine = 0\n"),
            ("example.org/t/bar/bar.fut", "def bar = 1\n"),
            (
                "example.org/t/foo/foo.fut",
                "import \"../bar/bar\"\ndef foo = bar + 10\n"
            ),
            ("example.org/t/foo/sub/deep.fut", "def deep = 0\n"),
        ])
    );
    assert!(!p.join("lib~new").exists() && !p.join("lib~old").exists());
    let out = f.ok(&p, &["pkg", "check"]);
    assert!(out.contains("example.org/t/foo 0.1.0: installed"), "{out}");

    // bar 0.1.0 directly; foo's newest version (0.2.0) needs bar 0.2.0,
    // which minimal version selection picks.
    let out = f.ok(&p, &["pkg", "add", "example.org/t/bar", "0.1.0"]);
    assert!(
        out.starts_with("Added new required package example.org/t/bar 0.1.0.\n"),
        "{out}"
    );
    let out = f.ok(&p, &["pkg", "add", "example.org/t/foo"]);
    assert_eq!(
        out,
        "Replaced example.org/t/foo 0.1.0 => 0.2.0.\nRemember to run 'parad pkg sync'.\n"
    );
    let out = f.ok(&p, &["pkg", "add", "example.org/t/foo", "0.2.0"]);
    assert_eq!(
        out,
        "Package already at version 0.2.0; nothing to do.\nRemember to run 'parad pkg sync'.\n"
    );
    let foo_020 = f.commit("t/foo", "v0.2.0");
    let bar_010 = f.commit("t/bar", "v0.1.0");
    assert_eq!(
        read(&p.join("futhark.pkg")),
        format!(
            "package example.org/me/proj\n\nrequire {{\n  example.org/t/foo 0.2.0 #{foo_020}\n  \
             example.org/t/bar 0.1.0 #{bar_010}\n}}\n"
        )
    );
    f.ok(&p, &["pkg", "sync"]);
    assert_eq!(
        read(&p.join("lib/example.org/t/bar/bar.fut")),
        "def bar = 2\n"
    );

    // Remove foo: bar falls back to the required 0.1.0.
    assert_eq!(
        f.ok(&p, &["pkg", "remove", "example.org/t/foo"]),
        "Removed example.org/t/foo 0.2.0.\n"
    );
    let err = f.fails(&p, &["pkg", "remove", "example.org/t/foo"]);
    assert!(
        err.contains("no package example.org/t/foo found in futhark.pkg"),
        "{err}"
    );
    f.ok(&p, &["pkg", "sync"]);
    assert_eq!(
        tree(&p.join("lib")),
        files(&[
            ("example.org/me/proj/mine.fut", "def mine = 0\n"),
            ("example.org/t/bar/bar.fut", "def bar = 1\n"),
        ])
    );

    // Upgrade to the newest version within the major versions 0 and 1.
    let out = f.ok(&p, &["pkg", "upgrade"]);
    assert_eq!(
        out,
        "Upgraded example.org/t/bar 0.1.0 => 1.0.0.\nRemember to run 'parad pkg sync'.\n"
    );
    let bar_100 = f.commit("t/bar", "v1.0.0");
    assert_eq!(
        read(&p.join("futhark.pkg")),
        format!(
            "package example.org/me/proj\n\nrequire {{\n  example.org/t/bar 1.0.0 #{bar_100}\n}}\n"
        )
    );
    assert_eq!(f.ok(&p, &["pkg", "upgrade"]), "Nothing to upgrade.\n");
    f.ok(&p, &["pkg", "sync"]);
    assert_eq!(
        read(&p.join("lib/example.org/t/bar/bar.fut")),
        "def bar = 3\n"
    );
}

#[test]
fn versions_lists_releases_of_one_major_version() {
    let f = Fixture::new();
    let p = f.project("proj");
    assert_eq!(
        f.ok(&p, &["pkg", "versions", "example.org/t/bar"]),
        "0.1.0\n0.2.0\n1.0.0\n"
    );
    assert_eq!(
        f.ok(&p, &["pkg", "versions", "example.org/t/bar@2"]),
        "2.0.0\n"
    );
    assert_eq!(f.ok(&p, &["pkg", "versions", "example.org/t/head"]), "");
    // The rewrite given by environment variables instead of a file.
    let o = Command::new(env!("CARGO_BIN_EXE_parad"))
        .args(["pkg", "versions", "example.org/t/foo"])
        .current_dir(&p)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_COUNT", "1")
        .env(
            "GIT_CONFIG_KEY_0",
            format!("url.file://{}/.insteadOf", f.repos().display()),
        )
        .env("GIT_CONFIG_VALUE_0", "https://example.org/")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "0.1.0\n0.2.0\n");
    let err = f.fails(&p, &["pkg", "versions", "example.org/t/none"]);
    assert!(
        err.contains("cannot fetch package example.org/t/none from https://example.org/t/none"),
        "{err}"
    );
    let err = f.fails(&p, &["pkg", "versions", "not-a-path"]);
    assert!(err.contains("package path"), "{err}");
}

#[test]
fn major_versions_and_commit_versions() {
    let f = Fixture::new();
    let p = f.project("proj");
    let out = f.ok(&p, &["pkg", "add", "example.org/t/bar@2"]);
    assert_eq!(
        out,
        "futhark.pkg not found - pretending it's empty.\n\
         Added new required package example.org/t/bar@2 2.0.0.\n\
         Remember to run 'parad pkg sync'.\n"
    );
    // A package without releases: its newest commit, as a pseudo-version
    // (without a pin: the version names the commit).
    let head = f.commit("t/head", "HEAD");
    let out = f.ok(&p, &["pkg", "add", "example.org/t/head"]);
    assert!(
        out.starts_with(&format!(
            "Added new required package example.org/t/head 0.0.0-20240102030405+{head}.\n"
        )),
        "{out}"
    );
    let bar_200 = f.commit("t/bar", "v2.0.0");
    assert_eq!(
        read(&p.join("futhark.pkg")),
        format!(
            "require {{\n  example.org/t/bar@2 2.0.0 #{bar_200}\n  \
             example.org/t/head 0.0.0-20240102030405+{head}\n}}\n"
        )
    );
    f.ok(&p, &["pkg", "sync"]);
    assert_eq!(
        tree(&p.join("lib")),
        files(&[
            ("example.org/t/bar@2/bar.fut", "def bar = 20\n"),
            ("example.org/t/head/h.fut", "def h = 2\n"),
        ])
    );
    // An older commit by its pseudo-version.
    let first = git(
        &f.repos().join("t/head"),
        &f.config,
        &["rev-list", "--max-parents=0", "HEAD"],
    );
    let v = format!("0.0.0-20240102030405+{first}");
    f.ok(&p, &["pkg", "add", "example.org/t/head", &v]);
    f.ok(&p, &["pkg", "sync"]);
    assert_eq!(read(&p.join("lib/example.org/t/head/h.fut")), "def h = 1\n");
    // Asking for major version 2 without @2 says how.
    let err = f.fails(&p, &["pkg", "add", "example.org/t/bar", "2.0.0"]);
    assert!(
        err.contains("package example.org/t/bar does not have a version 2.0.0.")
            && err.contains("Known versions: 0.1.0, 0.2.0, 1.0.0")
            && err.contains("use package path example.org/t/bar@2"),
        "{err}"
    );
    let err = f.fails(
        &p,
        &[
            "pkg",
            "add",
            "example.org/t/head",
            "0.0.0-20240102030405+abcdef",
        ],
    );
    assert!(err.contains("has no commit abcdef"), "{err}");
}

#[test]
fn failures_leave_the_manifest_and_lib_as_they_were() {
    let f = Fixture::new();
    let p = f.project("proj");
    let bar_010 = f.commit("t/bar", "v0.1.0");
    let manifest = format!(
        "-- My project.\npackage example.org/me/proj\n\nrequire {{\n  -- the bar\n  \
         example.org/t/bar 0.1.0 #{bar_010} -- old\n}}\n"
    );
    write(&p, "futhark.pkg", &manifest);
    f.ok(&p, &["pkg", "sync"]);
    write(&p, "lib/example.org/me/proj/mine.fut", "def mine = 0\n");
    let lib = tree(&p.join("lib"));
    let unchanged = |what: &str| {
        assert_eq!(read(&p.join("futhark.pkg")), manifest, "{what}");
        assert_eq!(tree(&p.join("lib")), lib, "{what}");
        for tmp in ["lib~new", "lib~old", "futhark.pkg~new"] {
            assert!(!p.join(tmp).exists(), "{what}: {tmp}");
        }
    };
    let err = f.fails(&p, &["pkg", "add", "example.org/t/bar", "0.3.0"]);
    assert!(
        err.contains("package example.org/t/bar does not have a version 0.3.0.\nKnown versions: 0.1.0, 0.2.0, 1.0.0"),
        "{err}"
    );
    unchanged("missing version");
    let err = f.fails(&p, &["pkg", "add", "example.org/t/none"]);
    assert!(
        err.contains("cannot fetch package example.org/t/none"),
        "{err}"
    );
    unchanged("missing repository");
    let err = f.fails(&p, &["pkg", "add", "example.org/t/bar", "1.2"]);
    assert!(err.contains("'1.2' is not a version"), "{err}");
    unchanged("malformed version");
    let err = f.fails(&p, &["pkg", "add", "https://example.org/t/bar"]);
    assert!(err.contains("expected a package path"), "{err}");
    unchanged("malformed path");

    // A package without its lib/ folder: add checks only that it exists,
    // sync fails.
    f.ok(&p, &["pkg", "add", "example.org/t/nolib"]);
    let with_nolib = read(&p.join("futhark.pkg"));
    let err = f.fails(&p, &["pkg", "sync"]);
    assert!(
        err.contains("package example.org/t/nolib 0.1.0 does not contain a directory lib/example.org/t/nolib/"),
        "{err}"
    );
    assert_eq!(tree(&p.join("lib")), lib);
    assert!(!p.join("lib~new").exists());
    f.ok(&p, &["pkg", "remove", "example.org/t/nolib"]);
    // Removing keeps the comments; the manifest is back to what it was.
    assert_ne!(with_nolib, manifest);
    unchanged("remove");

    // A pinned commit that is not the version's.
    let wrong = manifest.replace(&bar_010, "0123456789abcdef0123456789abcdef01234567");
    write(&p, "futhark.pkg", &wrong);
    let err = f.fails(&p, &["pkg", "sync"]);
    assert!(
        err.contains(&format!(
            "package example.org/t/bar 0.1.0 has commit hash {bar_010}, but expected 0123456789abcdef0123456789abcdef01234567"
        )),
        "{err}"
    );
    assert_eq!(tree(&p.join("lib")), lib);

    // A malformed manifest: every command says where, and changes nothing.
    let bad = "package example.org/me/proj\nrequire {\n  example.org/t/bar 0.1\n}\n";
    write(&p, "futhark.pkg", bad);
    for args in [
        &["pkg", "sync"][..],
        &["pkg", "add", "example.org/t/foo"],
        &["pkg", "remove", "example.org/t/bar"],
        &["pkg", "upgrade"],
    ] {
        let err = f.fails(&p, args);
        assert!(
            err.starts_with("error: futhark.pkg:3:21: expected a version such as 1.2.3"),
            "{args:?}: {err}"
        );
        assert_eq!(read(&p.join("futhark.pkg")), bad);
        assert_eq!(tree(&p.join("lib")), lib);
    }

    // A sync that was interrupted between its renames is not covered up.
    write(&p, "futhark.pkg", &manifest);
    std::fs::create_dir(p.join("lib~old")).unwrap();
    let err = f.fails(&p, &["pkg", "sync"]);
    assert!(err.contains("left by an interrupted sync"), "{err}");
    assert_eq!(tree(&p.join("lib")), lib);
    std::fs::remove_dir(p.join("lib~old")).unwrap();

    // Without a manifest, sync refuses (it would empty lib/).
    std::fs::remove_file(p.join("futhark.pkg")).unwrap();
    let err = f.fails(&p, &["pkg", "sync"]);
    assert!(err.contains("no futhark.pkg in"), "{err}");
    assert_eq!(tree(&p.join("lib")), lib);
}

#[test]
fn a_broken_dependency_manifest_is_located() {
    let f = Fixture::new();
    f.repo(
        "t/broken",
        &[(
            &[
                (
                    "futhark.pkg",
                    Some("package example.org/t/broken\nrequire {\n  example.org/t/bar\n}\n"),
                ),
                ("lib/example.org/t/broken/b.fut", Some("def b = 0\n")),
            ],
            Some("v1.0.0"),
        )],
    );
    let p = f.project("proj");
    let err = f.fails(&p, &["pkg", "add", "example.org/t/broken"]);
    assert!(
        err.contains("package example.org/t/broken 1.0.0: futhark.pkg:4:1: expected a version"),
        "{err}"
    );
    assert!(!p.join("futhark.pkg").exists());
}

#[test]
fn adding_keeps_comments() {
    let f = Fixture::new();
    let p = f.project("proj");
    write(
        &p,
        "futhark.pkg",
        "-- My project.\n\npackage example.org/me/proj -- here\n\n-- Needs:\nrequire {\n\
         \t-- bar, for bars\n\texample.org/t/bar 0.1.0   -- oldest that works\n}\n-- end\n",
    );
    f.ok(&p, &["pkg", "add", "example.org/t/bar", "0.2.0"]);
    f.ok(&p, &["pkg", "add", "example.org/t/foo", "0.1.0"]);
    let bar = f.commit("t/bar", "v0.2.0");
    let foo = f.commit("t/foo", "v0.1.0");
    assert_eq!(
        read(&p.join("futhark.pkg")),
        format!(
            "-- My project.\npackage example.org/me/proj -- here\n\n-- Needs:\nrequire {{\n  \
             -- bar, for bars\n  example.org/t/bar 0.2.0 #{bar} -- oldest that works\n  \
             example.org/t/foo 0.1.0 #{foo}\n}}\n-- end\n"
        )
    );
}
