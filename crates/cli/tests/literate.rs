//! `parad literate` end to end, with the interpreter (the fastest backend
//! for tiny programs): a program with a value directive, an image, a plot
//! of a function and its derivative (by `vjp`), an animation and a
//! failing directive gives the exact Markdown expected, image files that
//! decode to the sizes asked, the same bytes on a second run, and exit
//! status 1; a program that does not type-check writes nothing.

use std::path::Path;
use std::process::{Command, Output};

const PROGRAM: &str = "\
-- # Squares
--
-- Prose in *Markdown*.

def f (x: f64) : f64 = x * x * x

entry square (x: i32) : i32 = x * x

entry curve (n: i64) : ([n]f64, [n]f64) =
  let xs = map (\\i -> f64.i64 i / 4) (iota n)
  in (xs, map f xs)

entry slope (n: i64) : ([n]f64, [n]f64) =
  let xs = map (\\i -> f64.i64 i / 4) (iota n)
  in (xs, map (\\x -> vjp f x 1) xs)

entry board (h: i64) (w: i64) : [h][w]u32 =
  tabulate_2d h w (\\i j -> if (i + j) % 2 == 0 then 0xff0000 else 0x0000ff)

entry frames (n: i64) : [n][2][3]u32 =
  tabulate_3d n 2 3 (\\t i j -> u32.i64 (t * 40 + i * 3 + j))

entry check (x: i32) : i32 = assert (x > 0) x

-- > square 7

-- > (slope 3, {b = square 3, a = 1f32})

-- > :img board 2 3

-- > :plot2d {cube = curve 9, slope = slope 9};
-- size: (320,200)

-- > :video frames 5;
-- fps: 5
-- format: gif

-- > check (-1)

-- ==
-- input { 2 } output { 4 }
";

const EXPECTED: &str = "\
# Squares

Prose in *Markdown*.

```futhark
def f (x: f64) : f64 = x * x * x

entry square (x: i32) : i32 = x * x

entry curve (n: i64) : ([n]f64, [n]f64) =
  let xs = map (\\i -> f64.i64 i / 4) (iota n)
  in (xs, map f xs)

entry slope (n: i64) : ([n]f64, [n]f64) =
  let xs = map (\\i -> f64.i64 i / 4) (iota n)
  in (xs, map (\\x -> vjp f x 1) xs)

entry board (h: i64) (w: i64) : [h][w]u32 =
  tabulate_2d h w (\\i j -> if (i + j) % 2 == 0 then 0xff0000 else 0x0000ff)

entry frames (n: i64) : [n][2][3]u32 =
  tabulate_3d n 2 3 (\\t i j -> u32.i64 (t * 40 + i * 3 + j))

entry check (x: i32) : i32 = assert (x > 0) x
```

```
> square 7
```

```
49i32
```


```
> (slope 3, {b = square 3, a = 1f32})
```

```
(([0.0f64, 0.25f64, 0.5f64], [0.0f64, 0.1875f64, 0.75f64]), {a = 1.0f32, b = 9i32})
```


```
> :img board 2 3
```

![](prog-img/img-29.png)


```
> :plot2d {cube = curve 9, slope = slope 9};
size: (320,200)
```

![](prog-img/plot-31.png)


```
> :video frames 5;
fps: 5
format: gif
```

![](prog-img/video-34.gif)


```
> check (-1)
```

**FAILED**
```
`check` failed:
error: Assertion is false
   ┌─ prog.fut:23:30
   │
23 │ entry check (x: i32) : i32 = assert (x > 0) x
   │                              ^^^^^^^^^^^^^^^^
```


```futhark
-- ==
-- input { 2 } output { 4 }
```
";

fn literate(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parad"))
        .arg("literate")
        .args(["--backend", "interp"])
        .args(args)
        .current_dir(dir)
        .env_remove("PARAD_BACKEND")
        .output()
        .expect("parad runs")
}

#[test]
fn a_literate_program_becomes_markdown_and_images() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("prog.fut"), PROGRAM).unwrap();
    // A file of an earlier run that no directive writes now is removed.
    std::fs::create_dir(dir.join("prog-img")).unwrap();
    std::fs::write(dir.join("prog-img/stale.png"), "old").unwrap();

    let out = literate(dir, &["prog.fut"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.contains("prog.fut:38: directive `> check (-1)` failed:\n`check` failed:\nerror: Assertion is false"),
        "{stderr}"
    );
    let md = std::fs::read_to_string(dir.join("prog.md")).unwrap();
    assert_eq!(md, EXPECTED);

    let mut names: Vec<String> = std::fs::read_dir(dir.join("prog-img"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["img-29.png", "plot-31.png", "video-34.gif"]);

    let read = |name: &str| std::fs::read(dir.join("prog-img").join(name)).unwrap();
    let img = read("img-29.png");
    assert_eq!(&img[..8], b"\x89PNG\r\n\x1a\n");
    let img = parad_literate::media::decode_png(&img).unwrap();
    assert_eq!((img.width, img.height), (3, 2));
    assert_eq!(
        img.pixels,
        [255, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 255]
    );
    let plot = parad_literate::media::decode_png(&read("plot-31.png")).unwrap();
    assert_eq!((plot.width, plot.height), (320, 200));
    let colours: std::collections::BTreeSet<&[u8]> = plot.pixels.chunks_exact(3).collect();
    assert!(colours.len() > 2, "the plot is blank");
    let video = read("video-34.gif");
    assert_eq!(&video[..6], b"GIF89a");
    assert_eq!(parad_literate::media::gif_info(&video).unwrap(), (5, 3, 2));

    // The same program gives the same bytes.
    let again = literate(dir, &["prog.fut"]);
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(dir.join("prog.md")).unwrap(), md);
    assert_eq!(
        read("plot-31.png"),
        std::fs::read(dir.join("prog-img/plot-31.png")).unwrap()
    );
    assert_eq!(read("video-34.gif"), video);
}

#[test]
fn stop_on_error_writes_no_document() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("p.fut"),
        "entry f (x: i32) : i32 = x\n\n-- > g 1\n\n-- > f 2\n",
    )
    .unwrap();
    let out = literate(dir, &["--stop-on-error", "-o", "doc.md", "p.fut"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "p.fut:3: directive `> g 1` failed:\nunknown name `g` (directives call the program's entry points)\n"
    );
    assert!(!dir.join("doc.md").exists());

    // Without it, the document is written to -o, with the failure in it.
    let out = literate(dir, &["-o", "doc.md", "p.fut"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("doc.md")).unwrap(),
        "```futhark\nentry f (x: i32) : i32 = x\n```\n\n\
         ```\n> g 1\n```\n\n**FAILED**\n```\nunknown name `g` (directives call the program's entry points)\n```\n\n\
         \n\
         ```\n> f 2\n```\n\n```\n2i32\n```\n"
    );
}

#[test]
fn a_program_that_does_not_type_check_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("bad.fut"),
        "entry f (x: i32) = x + true\n\n-- > :img f 1\n",
    )
    .unwrap();
    let out = literate(dir, &["bad.fut"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.fut:1:24"), "{stderr}");
    assert!(!dir.join("bad.md").exists());
    assert!(!dir.join("bad-img").exists());
}
