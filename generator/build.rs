//! Hashes the generator's sources (this crate's and the puzzle crate's) into the
//! generator's identity, `FILA_GENERATOR`, which every generated file's stamp records: an
//! edit to anything that shapes the generated code then makes that code stale.

#[path = "src/stamp.rs"]
#[allow(dead_code)]
mod stamp;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the generator lives in the workspace");
    for dir in stamp::GENERATOR_SOURCES {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    let hash = stamp::source_hash(root).unwrap_or_else(|e| {
        panic!(
            "cannot read the generator's sources below {}: {e}",
            root.display()
        )
    });
    let identity = stamp::generator_identity(env!("CARGO_PKG_VERSION"), hash);
    println!("cargo:rustc-env=FILA_GENERATOR={identity}");
}
