//! Build script: for Windows, the executable's icon and version details (the commit the build
//! comes from is the core crate's, core/build.rs).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
