//! Build script: the desktop's built-in lesson and practice books (every file under
//! assets/lessons and assets/practice, so a new game's books need no code), and for Windows the
//! executable's icon and version details (the commit the build comes from is the core crate's,
//! core/build.rs).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    built_in_books();
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        windows_resource();
    }
}

/// The icon Explorer and the taskbar show for stoneyard.exe, and its file details. A build without
/// a resource compiler still runs, without the icon (`make dist-test` checks the download has it).
fn windows_resource() {
    let icon = concat!(env!("CARGO_MANIFEST_DIR"), "/packaging/stoneyard.ico");
    println!("cargo:rerun-if-changed={icon}");
    let mut resource = winresource::WindowsResource::new();
    resource.set_icon(icon).set("ProductName", "Stoneyard").set("FileDescription", "Stoneyard");
    if let Err(error) = resource.compile() {
        println!("cargo:warning=stoneyard.exe gets no icon: the resource compiler failed: {error}");
    }
}

/// Writes `books.rs` into OUT_DIR: `BOOKS`, each `(shelf folder, game slug, text)` of the books
/// under assets/, in a stable order, for `app::lesson::books` to build in.
fn built_in_books() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut rows = Vec::new();
    for shelf in ["lessons", "practice"] {
        let folder = root.join(shelf);
        println!("cargo:rerun-if-changed={}", folder.display());
        let entries = std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if let (Some(slug), Some("ron")) =
                (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|e| e.to_str()))
            {
                rows.push(format!("    ({shelf:?}, {slug:?}, include_str!({:?})),\n", path.display().to_string()));
            }
        }
    }
    rows.sort();
    let text = format!(
        "/// Every built-in book: (shelf folder, game slug, text).\npub const BOOKS: &[(&str, &str, &str)] = &[\n{}];\n",
        rows.concat()
    );
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("books.rs");
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
