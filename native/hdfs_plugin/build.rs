//! Records the hdfs-native version resolved in Cargo.lock, so the plugin can report the
//! exact client version to `tf1compat doctor`.
fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let mut lines = lock.lines();
    let mut version = "unknown".to_string();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"hdfs-native\"" {
            if let Some(v) = lines.next().and_then(|l| l.trim().strip_prefix("version = ")) {
                version = v.trim_matches('"').to_string();
            }
            break;
        }
    }
    println!("cargo:rustc-env=HDFS_NATIVE_VERSION={version}");
}
