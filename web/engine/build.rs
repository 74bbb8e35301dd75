//! Embeds the shipped definitions, so that a definition built on one of them (`from
//! "../chess.variant"`) finds its base in a page, where there are no files.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../definitions");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for (prefix, dir) in [("", root.clone()), ("library/", root.join("library"))] {
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("the definitions folder is readable")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".variant"))
            .collect();
        names.sort();
        for name in names {
            let path = dir
                .join(&name)
                .canonicalize()
                .expect("a definition is readable");
            files.push((format!("{prefix}{name}"), path));
        }
    }
    let mut out =
        String::from("/// The shipped definitions, by their path under `definitions/`.\n");
    out.push_str("pub static SHIPPED: &[(&str, &str)] = &[\n");
    for (name, path) in files {
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String cannot fail");
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
