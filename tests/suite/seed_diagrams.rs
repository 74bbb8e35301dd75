//! The move diagrams printed on the Gala Xiang-Qi page, redrawn by `rulebook diagram`: for
//! each, the squares marked must be the page's `*` squares exactly, on the position the page
//! draws, and the zone glyphs must agree except where the page slipped.

use std::collections::BTreeSet;
use std::process::Command;

const DEFINITION: &str = "definitions/gala-xiangqi.variant";
const WIDTH: usize = 16;

/// One diagram of the records file.
struct SeedDiagram {
    name: String,
    options: Vec<String>,
    top_rank: usize,
    slips: BTreeSet<String>,
    rows: Vec<String>,
}

fn square(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank)
}

fn seed_diagrams() -> Vec<SeedDiagram> {
    let path = format!(
        "{}/tests/records/gala-xiangqi-diagrams.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<SeedDiagram> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix("diagram ") {
            let fields: Vec<&str> = header.split(" | ").collect();
            assert_eq!(fields.len(), 5, "header: {line}");
            let value = |field: &str, key: &str| -> String {
                field
                    .strip_prefix(key)
                    .unwrap_or_else(|| panic!("`{key}` expected in {line}"))
                    .trim()
                    .to_string()
            };
            let list = |v: String| -> Vec<String> {
                if v == "-" {
                    Vec::new()
                } else {
                    v.split(',').map(|s| s.trim().to_string()).collect()
                }
            };
            out.push(SeedDiagram {
                name: fields[0].to_string(),
                options: list(value(fields[1], "options ")),
                top_rank: value(fields[2], "top rank ").parse().unwrap(),
                slips: list(value(fields[3], "slips ")).into_iter().collect(),
                rows: Vec::new(),
            });
        } else {
            let d = out.last_mut().expect("a grid row after a header");
            assert_eq!(line.chars().count(), WIDTH, "{}: row `{line}`", d.name);
            d.rows.push(line.to_string());
        }
    }
    out
}

/// The squares of a grid whose top row is `top_rank`, by what they show.
fn cells(rows: &[String], top_rank: usize) -> Vec<(String, char)> {
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (f, c) in row.chars().enumerate() {
            out.push((square(f, top_rank - r), c));
        }
    }
    out
}

fn rulebook(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "rulebook {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_seed_diagram_is_redrawn_square_for_square() {
    let diagrams = seed_diagrams();
    assert_eq!(diagrams.len(), 11, "the page prints 11 move diagrams");
    for d in &diagrams {
        let seed = cells(&d.rows, d.top_rank);
        let mut args = vec!["diagram".to_string(), DEFINITION.to_string()];
        for o in &d.options {
            args.extend(["--option".to_string(), o.clone()]);
        }
        let pieces: Vec<&(String, char)> = seed
            .iter()
            .filter(|(_, c)| c.is_ascii_uppercase())
            .collect();
        assert!(!pieces.is_empty(), "{}: no piece drawn", d.name);
        for (sq, letter) in &pieces {
            args.extend([
                "--piece".to_string(),
                letter.to_string(),
                "--at".to_string(),
                sq.clone(),
            ]);
        }
        args.extend(["--format".to_string(), "plain".to_string()]);
        let drawn = rulebook(&args);
        let all_rows: Vec<String> = drawn.lines().map(str::to_string).collect();
        assert_eq!(all_rows.len(), WIDTH, "{}: a 16-rank board", d.name);
        // The page may draw only a corner: compare the ranks it shows.
        let shown = &all_rows[WIDTH - d.top_rank..WIDTH - d.top_rank + d.rows.len()];
        let ours = cells(shown, d.top_rank);

        let stars = |grid: &[(String, char)]| -> BTreeSet<String> {
            grid.iter()
                .filter(|(_, c)| *c == '*')
                .map(|(s, _)| s.clone())
                .collect()
        };
        let (want, got) = (stars(&seed), stars(&ours));
        assert_eq!(
            got,
            want,
            "{}: rulebook marks {:?} the page does not, misses {:?}",
            d.name,
            got.difference(&want).collect::<Vec<_>>(),
            want.difference(&got).collect::<Vec<_>>()
        );
        let mut slipped = BTreeSet::new();
        for ((sq, page), (_, mine)) in seed.iter().zip(&ours) {
            if page != mine {
                assert!(
                    d.slips.contains(sq),
                    "{}: {sq} is `{page}` on the page, `{mine}` here",
                    d.name
                );
                slipped.insert(sq.clone());
            }
        }
        assert_eq!(slipped, d.slips, "{}: every slip listed is one", d.name);

        let mut side_by_side = format!(
            "{}{}\n{:<w$}  rulebook diagram --format plain\n",
            d.name,
            if d.options.is_empty() {
                String::new()
            } else {
                format!(" (--option {})", d.options.join(" --option "))
            },
            "page",
            w = WIDTH
        );
        for (page, mine) in d.rows.iter().zip(shown) {
            side_by_side.push_str(&format!("{page}  {mine}\n"));
        }
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!(
                format!("gala_xiangqi_diagram_{}", d.name.replace(' ', "_")),
                side_by_side
            );
        });
    }
}
