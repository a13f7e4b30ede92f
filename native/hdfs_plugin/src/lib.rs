//! TensorFlow filesystem plugin for `hdfs://` and `viewfs://`, on the hdfs-native client.
//!
//! Load with `tf.experimental.register_filesystem_plugin(path_to_this_.so)`; TensorFlow
//! then calls `TF_InitPlugin`, which fills one `TF_FilesystemPluginOps` per scheme. No
//! JVM, no libhdfs: hdfs-native speaks the NameNode/DataNode protocols itself.
//!
//! Settings (environment, read when a client is first built):
//! - `HADOOP_USER_NAME`: the HDFS user; `HADOOP_CONF_DIR`: core-site/hdfs-site for
//!   nameservices and viewfs mount tables.
//! - `TF1COMPAT_HDFS_CONNECT_TIMEOUT_S` (10), `TF1COMPAT_HDFS_RPC_TIMEOUT_S` (60),
//!   `TF1COMPAT_HDFS_FAILOVER_ATTEMPTS` (2), `TF1COMPAT_HDFS_READAHEAD_MB` (8).

mod abi;
mod connect;
mod errors;
mod ffi;
mod files;
mod filesystem;
mod paths;
mod read;
mod status;
mod write;

use std::os::raw::c_char;

use abi::*;
use ffi::{c_string, plugin_alloc, plugin_free};

const SCHEMES: [&str; 2] = ["hdfs", "viewfs"];

/// Copies `value` into plugin-allocated memory: TensorFlow frees every table with
/// `plugin_memory_free` after copying it.
fn boxed_in_plugin_memory<T>(value: T) -> *mut T {
    unsafe {
        let p = plugin_alloc(std::mem::size_of::<T>()) as *mut T;
        p.write(value);
        p
    }
}

fn provide_scheme(ops: &mut TF_FilesystemPluginOps, scheme: &str) {
    ops.scheme = c_string(scheme);
    // What TF_SetFilesystemVersionMetadata does in C.
    ops.filesystem_ops_abi = TF_FILESYSTEM_OPS_ABI;
    ops.filesystem_ops_api = TF_FILESYSTEM_OPS_API;
    ops.filesystem_ops_size = std::mem::size_of::<TF_FilesystemOps>();
    ops.filesystem_ops = boxed_in_plugin_memory(filesystem::filesystem_ops());
    ops.random_access_file_ops_abi = TF_RANDOM_ACCESS_FILE_OPS_ABI;
    ops.random_access_file_ops_api = TF_RANDOM_ACCESS_FILE_OPS_API;
    ops.random_access_file_ops_size = std::mem::size_of::<TF_RandomAccessFileOps>();
    ops.random_access_file_ops = boxed_in_plugin_memory(files::random_access_file_ops());
    ops.writable_file_ops_abi = TF_WRITABLE_FILE_OPS_ABI;
    ops.writable_file_ops_api = TF_WRITABLE_FILE_OPS_API;
    ops.writable_file_ops_size = std::mem::size_of::<TF_WritableFileOps>();
    ops.writable_file_ops = boxed_in_plugin_memory(files::writable_file_ops());
    ops.read_only_memory_region_ops_abi = TF_READ_ONLY_MEMORY_REGION_OPS_ABI;
    ops.read_only_memory_region_ops_api = TF_READ_ONLY_MEMORY_REGION_OPS_API;
    ops.read_only_memory_region_ops_size = std::mem::size_of::<TF_ReadOnlyMemoryRegionOps>();
    ops.read_only_memory_region_ops = std::ptr::null_mut();
}

/// Entry point TensorFlow calls when loading the plugin.
///
/// # Safety
/// `info` must point to a zeroed `TF_FilesystemPluginInfo`, as TensorFlow passes it.
#[no_mangle]
pub unsafe extern "C" fn TF_InitPlugin(info: *mut TF_FilesystemPluginInfo) {
    if info.is_null() {
        return;
    }
    (*info).plugin_memory_allocate = Some(plugin_alloc);
    (*info).plugin_memory_free = Some(plugin_free);
    if !status::available() {
        // Without TF_SetStatus every failure would read as success: register nothing,
        // so TensorFlow keeps answering "scheme not implemented".
        eprintln!("tf1compat hdfs plugin: TF_SetStatus not found in the loaded TensorFlow; not registering hdfs://");
        (*info).num_schemes = 0;
        (*info).ops = plugin_alloc(std::mem::size_of::<TF_FilesystemPluginOps>()) as *mut _;
        return;
    }
    let n = SCHEMES.len();
    let ops = plugin_alloc(n * std::mem::size_of::<TF_FilesystemPluginOps>()) as *mut TF_FilesystemPluginOps;
    for (i, scheme) in SCHEMES.iter().enumerate() {
        provide_scheme(&mut *ops.add(i), scheme);
    }
    (*info).num_schemes = n;
    (*info).ops = ops;
}

/// Version string for `tf1compat doctor` (read with ctypes, never freed: static).
#[no_mangle]
pub extern "C" fn tf1compat_hdfs_plugin_version() -> *const c_char {
    concat!("tf1compat-hdfs-plugin ", env!("CARGO_PKG_VERSION"), "; hdfs-native ", env!("HDFS_NATIVE_VERSION"), "\0").as_ptr() as *const c_char
}
