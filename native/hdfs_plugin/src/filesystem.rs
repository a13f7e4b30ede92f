//! `TF_FilesystemOps`: the filesystem-level operations (stat, list, mkdir, delete,
//! rename, open). Globbing is left to TensorFlow's default, which is built from
//! `get_children` + `is_directory` and keeps TensorFlow's own glob syntax exactly.

use std::os::raw::c_char;

use hdfs_native::client::FileStatus;
use hdfs_native::WriteOptions;

use crate::abi::*;
use crate::connect::{call, client_for, forget_clients};
use crate::errors::{PluginError, PluginResult};
use crate::ffi::{c_string, c_string_array, guarded, uri_arg};
use crate::paths::HdfsUri;
use crate::read::HdfsReadFile;
use crate::write::HdfsWriteFile;

type Fs = *const TF_Filesystem;
type St = *mut TF_Status;

fn stat_of(op: &str, uri: &HdfsUri) -> PluginResult<FileStatus> {
    let client = client_for(uri)?;
    call(op, uri, client.get_file_info(&uri.path))
}

unsafe extern "C" fn init(fs: *mut TF_Filesystem, status: St) {
    // All state (runtime, client cache) is process-wide; nothing per filesystem object.
    guarded(status, (), || {
        (*fs).plugin_filesystem = std::ptr::null_mut();
        Ok(())
    })
}

unsafe extern "C" fn cleanup(_fs: *mut TF_Filesystem) {}

unsafe extern "C" fn new_random_access_file(_: Fs, path: *const c_char, file: *mut TF_RandomAccessFile, status: St) {
    guarded(status, (), || {
        let uri = uri_arg(path)?;
        let client = client_for(&uri)?;
        let reader = call("open", &uri, client.read(&uri.path)).map_err(|e| {
            // The NameNode answers "FileNotFoundException: Path is not a file" for a
            // directory; TensorFlow expects FAILED_PRECONDITION there, NOT_FOUND only
            // for a path that does not exist.
            if stat_of("open", &uri).map(|s| s.isdir).unwrap_or(false) {
                PluginError::new(TF_FAILED_PRECONDITION, format!("open {}: is a directory, expected a file", uri.display()))
            } else {
                e
            }
        })?;
        let boxed = Box::new(HdfsReadFile::new(uri, reader));
        (*file).plugin_file = Box::into_raw(boxed) as *mut _;
        Ok(())
    })
}

fn open_for_write(path: *const c_char, file: *mut TF_WritableFile, append: bool) -> PluginResult<()> {
    let uri = uri_arg(path)?;
    let client = client_for(&uri)?;
    let (writer, start) = if append {
        match call("append to", &uri, client.append(&uri.path)) {
            Ok(w) => {
                let len = stat_of("append to", &uri)?.length as u64;
                (w, len)
            }
            // TF's NewAppendableFile creates a missing file, like POSIX O_APPEND|O_CREAT.
            Err(e) if e.code == TF_NOT_FOUND => (create(&uri)?, 0),
            Err(e) => return Err(e),
        }
    } else {
        (create(&uri)?, 0)
    };
    let boxed = Box::new(HdfsWriteFile::new(uri, writer, start));
    unsafe { (*file).plugin_file = Box::into_raw(boxed) as *mut _ };
    Ok(())
}

fn create(uri: &HdfsUri) -> PluginResult<hdfs_native::file::FileWriter> {
    let client = client_for(uri)?;
    // TF semantics: a new writable file replaces an existing one; parents must exist
    // in POSIX, but object stores and HDFS users expect them to be made.
    let opts = WriteOptions::default().overwrite(true).create_parent(true);
    call("create", uri, client.create(&uri.path, opts))
}

unsafe extern "C" fn new_writable_file(_: Fs, path: *const c_char, file: *mut TF_WritableFile, status: St) {
    guarded(status, (), || open_for_write(path, file, false))
}

unsafe extern "C" fn new_appendable_file(_: Fs, path: *const c_char, file: *mut TF_WritableFile, status: St) {
    guarded(status, (), || open_for_write(path, file, true))
}

unsafe extern "C" fn create_dir(_: Fs, path: *const c_char, status: St) {
    guarded(status, (), || {
        let uri = uri_arg(path)?;
        match stat_of("mkdir", &uri) {
            Ok(_) => return Err(PluginError::new(TF_ALREADY_EXISTS, format!("mkdir {}: already exists", uri.display()))),
            Err(e) if e.code == TF_NOT_FOUND => {}
            Err(e) => return Err(e),
        }
        let client = client_for(&uri)?;
        call("mkdir", &uri, client.mkdirs(&uri.path, 0o755, false))
    })
}

unsafe extern "C" fn recursively_create_dir(_: Fs, path: *const c_char, status: St) {
    guarded(status, (), || {
        let uri = uri_arg(path)?;
        let client = client_for(&uri)?;
        call("makedirs", &uri, client.mkdirs(&uri.path, 0o755, true))
    })
}

fn delete(path: *const c_char, want_dir: bool, recursive: bool) -> PluginResult<()> {
    let uri = uri_arg(path)?;
    let op = if want_dir { "delete directory" } else { "delete file" };
    let st = stat_of(op, &uri)?;
    if st.isdir != want_dir {
        let what = if st.isdir { "is a directory" } else { "is not a directory" };
        return Err(PluginError::new(TF_FAILED_PRECONDITION, format!("{op} {}: {what}", uri.display())));
    }
    let client = client_for(&uri)?;
    match call(op, &uri, client.delete(&uri.path, recursive))? {
        true => Ok(()),
        // Gone between our stat and the delete: someone else removed it.
        false => Err(PluginError::not_found(&uri)),
    }
}

unsafe extern "C" fn delete_file(_: Fs, path: *const c_char, status: St) {
    guarded(status, (), || delete(path, false, false))
}

unsafe extern "C" fn delete_dir(_: Fs, path: *const c_char, status: St) {
    guarded(status, (), || delete(path, true, false))
}

unsafe extern "C" fn delete_recursively(_: Fs, path: *const c_char, files: *mut u64, dirs: *mut u64, status: St) {
    *files = 0;
    *dirs = 0;
    let ok = guarded(status, false, || {
        let uri = uri_arg(path)?;
        stat_of("delete recursively", &uri)?;
        let client = client_for(&uri)?;
        call("delete recursively", &uri, client.delete(&uri.path, true))?;
        Ok(true)
    });
    if !ok {
        // HDFS deletes a tree atomically: on failure nothing was deleted (the root counts).
        *dirs = 1;
    }
}

unsafe extern "C" fn rename_file(_: Fs, src: *const c_char, dst: *const c_char, status: St) {
    guarded(status, (), || {
        let (s, d) = (uri_arg(src)?, uri_arg(dst)?);
        if (&s.scheme, &s.authority) != (&d.scheme, &d.authority) {
            return Err(PluginError::new(
                TF_UNIMPLEMENTED,
                format!("rename {} -> {}: both paths must be on the same HDFS cluster", s.display(), d.display()),
            ));
        }
        stat_of("rename", &s)?;
        let client = client_for(&s)?;
        // TF's RenameFile replaces an existing target file (POSIX rename semantics).
        call("rename", &s, client.rename(&s.path, &d.path, true)).map_err(|mut e| {
            e.message = format!("{} (to {})", e.message, d.display());
            e
        })
    })
}

unsafe extern "C" fn path_exists(_: Fs, path: *const c_char, status: St) {
    guarded(status, (), || {
        let uri = uri_arg(path)?;
        stat_of("stat", &uri).map(|_| ())
    })
}

unsafe extern "C" fn stat(_: Fs, path: *const c_char, stats: *mut TF_FileStatistics, status: St) {
    guarded(status, (), || {
        let uri = uri_arg(path)?;
        let st = stat_of("stat", &uri)?;
        (*stats).length = if st.isdir { 0 } else { st.length as i64 };
        (*stats).mtime_nsec = (st.modification_time as i64).saturating_mul(1_000_000);
        (*stats).is_directory = st.isdir;
        Ok(())
    })
}

unsafe extern "C" fn is_directory(_: Fs, path: *const c_char, status: St) -> bool {
    guarded(status, false, || {
        let uri = uri_arg(path)?;
        if stat_of("stat", &uri)?.isdir {
            Ok(true)
        } else {
            Err(PluginError::new(TF_FAILED_PRECONDITION, format!("{} is not a directory", uri.display())))
        }
    })
}

unsafe extern "C" fn get_children(_: Fs, path: *const c_char, entries: *mut *mut *mut c_char, status: St) -> i32 {
    guarded(status, -1, || {
        let uri = uri_arg(path)?;
        if !stat_of("list", &uri)?.isdir {
            return Err(PluginError::new(TF_FAILED_PRECONDITION, format!("list {}: is a file, not a directory", uri.display())));
        }
        let client = client_for(&uri)?;
        let listing = call("list", &uri, client.list_status(&uri.path, false))?;
        let names: Vec<String> = listing
            .iter()
            .map(|s| s.path.rsplit('/').next().unwrap_or(&s.path).to_string())
            .filter(|n| !n.is_empty())
            .collect();
        Ok(c_string_array(&names, entries))
    })
}

/// TensorFlow's default translation keeps only the path and drops `scheme://host:port`,
/// which would lose which cluster to talk to; keep the whole URI, path cleaned.
unsafe extern "C" fn translate_name(_: Fs, uri: *const c_char) -> *mut c_char {
    let raw = if uri.is_null() { "" } else { std::ffi::CStr::from_ptr(uri).to_str().unwrap_or("") };
    match HdfsUri::parse(raw) {
        Ok(u) => c_string(&u.display()),
        // Not ours to judge here: the operation itself reports the bad path.
        Err(_) => c_string(raw),
    }
}

unsafe extern "C" fn flush_caches(_: Fs) {
    forget_clients();
}

/// The table TensorFlow copies at registration (allocated with the plugin allocator).
pub fn filesystem_ops() -> TF_FilesystemOps {
    TF_FilesystemOps {
        init: Some(init),
        cleanup: Some(cleanup),
        new_random_access_file: Some(new_random_access_file),
        new_writable_file: Some(new_writable_file),
        new_appendable_file: Some(new_appendable_file),
        new_read_only_memory_region_from_file: None, // TF falls back to reading the file
        create_dir: Some(create_dir),
        recursively_create_dir: Some(recursively_create_dir),
        delete_file: Some(delete_file),
        delete_dir: Some(delete_dir),
        delete_recursively: Some(delete_recursively),
        rename_file: Some(rename_file),
        copy_file: None,          // TF default: read + write
        path_exists: Some(path_exists),
        paths_exist: None,        // TF default: path_exists per path
        stat: Some(stat),
        is_directory: Some(is_directory),
        get_file_size: None,      // TF default: stat
        translate_name: Some(translate_name),
        get_children: Some(get_children),
        get_matching_paths: None, // TF default glob over get_children/is_directory
        flush_caches: Some(flush_caches),
        start_transaction: None,
        end_transaction: None,
        add_to_transaction: None,
        get_transaction_for_path: None,
        get_or_start_transaction_for_path: None,
        decode_transaction_token: None,
        get_filesystem_configuration: None,
        set_filesystem_configuration: None,
        get_filesystem_configuration_option: None,
        set_filesystem_configuration_option: None,
        get_filesystem_configuration_keys: None,
    }
}
