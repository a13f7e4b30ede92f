//! Rust mirrors of TensorFlow's stable filesystem plugin C ABI.
//!
//! Declared from `tensorflow/c/experimental/filesystem/filesystem_interface.h` as shipped
//! in the tensorflow 2.21 wheel. Field order and types must match the header exactly:
//! TensorFlow copies `min(plugin_size, sizeof(core table))` bytes of each table, so the
//! sizes we report come from these structs and any field we do not implement is `None`
//! (a NULL function pointer, which TensorFlow treats as "not supported" or "use default").

#![allow(non_camel_case_types, dead_code)]

use std::os::raw::{c_char, c_int, c_void};

/// The ABI/API numbers the header declares (`TF_*_OPS_ABI` / `TF_*_OPS_API`), all 0 in
/// TF 2.21. TensorFlow refuses a plugin whose ABI differs and only warns on API.
pub const TF_FILESYSTEM_OPS_ABI: c_int = 0;
pub const TF_FILESYSTEM_OPS_API: c_int = 0;
pub const TF_RANDOM_ACCESS_FILE_OPS_ABI: c_int = 0;
pub const TF_RANDOM_ACCESS_FILE_OPS_API: c_int = 0;
pub const TF_WRITABLE_FILE_OPS_ABI: c_int = 0;
pub const TF_WRITABLE_FILE_OPS_API: c_int = 0;
pub const TF_READ_ONLY_MEMORY_REGION_OPS_ABI: c_int = 0;
pub const TF_READ_ONLY_MEMORY_REGION_OPS_API: c_int = 0;

/// `TF_Code` values (identical to absl/tsl status codes).
pub type TF_Code = c_int;
pub const TF_OK: TF_Code = 0;
pub const TF_UNKNOWN: TF_Code = 2;
pub const TF_INVALID_ARGUMENT: TF_Code = 3;
pub const TF_DEADLINE_EXCEEDED: TF_Code = 4;
pub const TF_NOT_FOUND: TF_Code = 5;
pub const TF_ALREADY_EXISTS: TF_Code = 6;
pub const TF_PERMISSION_DENIED: TF_Code = 7;
pub const TF_RESOURCE_EXHAUSTED: TF_Code = 8;
pub const TF_FAILED_PRECONDITION: TF_Code = 9;
pub const TF_OUT_OF_RANGE: TF_Code = 11;
pub const TF_UNIMPLEMENTED: TF_Code = 12;
pub const TF_INTERNAL: TF_Code = 13;
pub const TF_UNAVAILABLE: TF_Code = 14;
pub const TF_DATA_LOSS: TF_Code = 15;

/// Opaque; only ever handled through pointers and the functions in `status.rs`.
#[repr(C)]
pub struct TF_Status {
    _private: [u8; 0],
}

#[repr(C)]
pub struct TF_FileStatistics {
    pub length: i64,
    pub mtime_nsec: i64,
    pub is_directory: bool,
}

#[repr(C)]
pub struct TF_RandomAccessFile {
    pub plugin_file: *mut c_void,
}

#[repr(C)]
pub struct TF_WritableFile {
    pub plugin_file: *mut c_void,
}

#[repr(C)]
pub struct TF_ReadOnlyMemoryRegion {
    pub plugin_memory_region: *mut c_void,
}

#[repr(C)]
pub struct TF_Filesystem {
    pub plugin_filesystem: *mut c_void,
}

type Opt<T> = Option<T>;
type Fs = *const TF_Filesystem;
type St = *mut TF_Status;
type Path = *const c_char;

#[repr(C)]
pub struct TF_RandomAccessFileOps {
    pub cleanup: Opt<unsafe extern "C" fn(*mut TF_RandomAccessFile)>,
    pub read: Opt<unsafe extern "C" fn(*const TF_RandomAccessFile, u64, usize, *mut c_char, St) -> i64>,
}

#[repr(C)]
pub struct TF_WritableFileOps {
    pub cleanup: Opt<unsafe extern "C" fn(*mut TF_WritableFile)>,
    pub append: Opt<unsafe extern "C" fn(*const TF_WritableFile, *const c_char, usize, St)>,
    pub tell: Opt<unsafe extern "C" fn(*const TF_WritableFile, St) -> i64>,
    pub flush: Opt<unsafe extern "C" fn(*const TF_WritableFile, St)>,
    pub sync: Opt<unsafe extern "C" fn(*const TF_WritableFile, St)>,
    pub close: Opt<unsafe extern "C" fn(*const TF_WritableFile, St)>,
}

#[repr(C)]
pub struct TF_ReadOnlyMemoryRegionOps {
    pub cleanup: Opt<unsafe extern "C" fn(*mut TF_ReadOnlyMemoryRegion)>,
    pub data: Opt<unsafe extern "C" fn(*const TF_ReadOnlyMemoryRegion) -> *const c_void>,
    pub length: Opt<unsafe extern "C" fn(*const TF_ReadOnlyMemoryRegion) -> u64>,
}

/// Every slot of the header's `TF_FilesystemOps`, in order. Slots we leave `None` are
/// either optional with a TensorFlow default (glob, copy, get_file_size, translate_name,
/// paths_exist) or features HDFS does not need here (transactions, configuration).
#[repr(C)]
pub struct TF_FilesystemOps {
    pub init: Opt<unsafe extern "C" fn(*mut TF_Filesystem, St)>,
    pub cleanup: Opt<unsafe extern "C" fn(*mut TF_Filesystem)>,
    pub new_random_access_file: Opt<unsafe extern "C" fn(Fs, Path, *mut TF_RandomAccessFile, St)>,
    pub new_writable_file: Opt<unsafe extern "C" fn(Fs, Path, *mut TF_WritableFile, St)>,
    pub new_appendable_file: Opt<unsafe extern "C" fn(Fs, Path, *mut TF_WritableFile, St)>,
    pub new_read_only_memory_region_from_file:
        Opt<unsafe extern "C" fn(Fs, Path, *mut TF_ReadOnlyMemoryRegion, St)>,
    pub create_dir: Opt<unsafe extern "C" fn(Fs, Path, St)>,
    pub recursively_create_dir: Opt<unsafe extern "C" fn(Fs, Path, St)>,
    pub delete_file: Opt<unsafe extern "C" fn(Fs, Path, St)>,
    pub delete_dir: Opt<unsafe extern "C" fn(Fs, Path, St)>,
    pub delete_recursively: Opt<unsafe extern "C" fn(Fs, Path, *mut u64, *mut u64, St)>,
    pub rename_file: Opt<unsafe extern "C" fn(Fs, Path, Path, St)>,
    pub copy_file: Opt<unsafe extern "C" fn(Fs, Path, Path, St)>,
    pub path_exists: Opt<unsafe extern "C" fn(Fs, Path, St)>,
    pub paths_exist: Opt<unsafe extern "C" fn(Fs, *mut *mut c_char, c_int, *mut St) -> bool>,
    pub stat: Opt<unsafe extern "C" fn(Fs, Path, *mut TF_FileStatistics, St)>,
    pub is_directory: Opt<unsafe extern "C" fn(Fs, Path, St) -> bool>,
    pub get_file_size: Opt<unsafe extern "C" fn(Fs, Path, St) -> i64>,
    pub translate_name: Opt<unsafe extern "C" fn(Fs, Path) -> *mut c_char>,
    pub get_children: Opt<unsafe extern "C" fn(Fs, Path, *mut *mut *mut c_char, St) -> c_int>,
    pub get_matching_paths: Opt<unsafe extern "C" fn(Fs, Path, *mut *mut *mut c_char, St) -> c_int>,
    pub flush_caches: Opt<unsafe extern "C" fn(Fs)>,
    pub start_transaction: Opt<unsafe extern "C" fn()>,
    pub end_transaction: Opt<unsafe extern "C" fn()>,
    pub add_to_transaction: Opt<unsafe extern "C" fn()>,
    pub get_transaction_for_path: Opt<unsafe extern "C" fn()>,
    pub get_or_start_transaction_for_path: Opt<unsafe extern "C" fn()>,
    pub decode_transaction_token: Opt<unsafe extern "C" fn()>,
    pub get_filesystem_configuration: Opt<unsafe extern "C" fn()>,
    pub set_filesystem_configuration: Opt<unsafe extern "C" fn()>,
    pub get_filesystem_configuration_option: Opt<unsafe extern "C" fn()>,
    pub set_filesystem_configuration_option: Opt<unsafe extern "C" fn()>,
    pub get_filesystem_configuration_keys: Opt<unsafe extern "C" fn()>,
}

#[repr(C)]
pub struct TF_FilesystemPluginOps {
    pub scheme: *mut c_char,
    pub filesystem_ops_abi: c_int,
    pub filesystem_ops_api: c_int,
    pub filesystem_ops_size: usize,
    pub filesystem_ops: *mut TF_FilesystemOps,
    pub random_access_file_ops_abi: c_int,
    pub random_access_file_ops_api: c_int,
    pub random_access_file_ops_size: usize,
    pub random_access_file_ops: *mut TF_RandomAccessFileOps,
    pub writable_file_ops_abi: c_int,
    pub writable_file_ops_api: c_int,
    pub writable_file_ops_size: usize,
    pub writable_file_ops: *mut TF_WritableFileOps,
    pub read_only_memory_region_ops_abi: c_int,
    pub read_only_memory_region_ops_api: c_int,
    pub read_only_memory_region_ops_size: usize,
    pub read_only_memory_region_ops: *mut TF_ReadOnlyMemoryRegionOps,
}

#[repr(C)]
pub struct TF_FilesystemPluginInfo {
    pub num_schemes: usize,
    pub ops: *mut TF_FilesystemPluginOps,
    pub plugin_memory_allocate: Opt<unsafe extern "C" fn(usize) -> *mut c_void>,
    pub plugin_memory_free: Opt<unsafe extern "C" fn(*mut c_void)>,
}

// The header's layout on LP64: 33 function pointers in TF_FilesystemOps, etc. A wrong
// count would silently shift every later slot, so check it at compile time.
const _: () = assert!(std::mem::size_of::<TF_FilesystemOps>() == 33 * 8);
const _: () = assert!(std::mem::size_of::<TF_RandomAccessFileOps>() == 2 * 8);
const _: () = assert!(std::mem::size_of::<TF_WritableFileOps>() == 6 * 8);
const _: () = assert!(std::mem::size_of::<TF_ReadOnlyMemoryRegionOps>() == 3 * 8);
const _: () = assert!(std::mem::size_of::<TF_FilesystemPluginOps>() == 13 * 8);
const _: () = assert!(std::mem::size_of::<TF_FilesystemPluginInfo>() == 4 * 8);
const _: () = assert!(std::mem::size_of::<TF_FileStatistics>() == 24);
