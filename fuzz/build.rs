//! Embeds every shipped definition (`definitions/*.variant`, then
//! `definitions/library/*.variant`, each folder sorted by name) so that the fuzz targets need
//! no files at run time. The order decides what the first byte of a `fen`, `moves`, `record`,
//! `uci` or `xboard` input picks: `cargo run --bin seeds -- list` prints it.

use std::{env, fs, path::PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().to_path_buf();
    let mut out = String::from("pub static DEFINITIONS: &[(&str, &str)] = &[\n");
    for dir in ["definitions", "definitions/library"] {
        let path = root.join(dir);
        println!("cargo:rerun-if-changed={}", path.display());
        let mut files: Vec<PathBuf> = fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "variant"))
            .collect();
        files.sort();
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
            let name = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            out.push_str(&format!(
                "    ({name:?}, include_str!({:?})),\n",
                f.display().to_string()
            ));
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").unwrap()).join("definitions.rs");
    fs::write(dest, out).unwrap();
}
