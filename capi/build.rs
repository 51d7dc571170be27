//! The shared library names itself (a SONAME), so that programs linked against it
//! record `libbuttonup_c.so` and a packager can install it under that name.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libbuttonup_c.so");
    }
}
