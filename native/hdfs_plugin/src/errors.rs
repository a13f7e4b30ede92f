//! HDFS failures as TensorFlow status codes with messages that name the full URI.
//!
//! TensorFlow turns the code into the Python exception class (NOT_FOUND ->
//! tf.errors.NotFoundError, ...), so the code decides what user code can catch and the
//! message is what a person reads: it names the hdfs:// path (or NameNode host:port) and
//! says what to do.

use hdfs_native::HdfsError;

use crate::abi::*;
use crate::paths::HdfsUri;

#[derive(Debug)]
pub struct PluginError {
    pub code: TF_Code,
    pub message: String,
}

pub type PluginResult<T> = Result<T, PluginError>;

impl PluginError {
    pub fn new(code: TF_Code, message: impl Into<String>) -> Self {
        PluginError { code, message: message.into() }
    }

    pub fn not_found(uri: &HdfsUri) -> Self {
        Self::new(TF_NOT_FOUND, format!("{}: no such file or directory on HDFS", uri.display()))
    }
}

/// Java exception classes the NameNode reports, by the status they mean.
fn code_for_exception(class: &str) -> TF_Code {
    let short = class.rsplit('.').next().unwrap_or(class);
    match short {
        "FileNotFoundException" => TF_NOT_FOUND,
        "AccessControlException" | "AuthorizationException" => TF_PERMISSION_DENIED,
        "FileAlreadyExistsException" | "AlreadyBeingCreatedException" => TF_ALREADY_EXISTS,
        "PathIsNotEmptyDirectoryException"
        | "ParentNotDirectoryException"
        | "PathIsNotDirectoryException"
        | "InvalidPathException" => TF_FAILED_PRECONDITION,
        "SafeModeException" | "StandbyException" | "RetriableException" => TF_UNAVAILABLE,
        "DSQuotaExceededException" | "NSQuotaExceededException" => TF_RESOURCE_EXHAUSTED,
        "UnsupportedOperationException" => TF_UNIMPLEMENTED,
        _ => TF_UNKNOWN,
    }
}

/// The first line of a Java exception message (the NameNode sends the stack trace too).
fn first_line(msg: &str) -> &str {
    msg.lines().next().unwrap_or("").trim()
}

/// Maps an hdfs-native error from `op` ("open", "stat", ...) on `uri` to a status.
pub fn from_hdfs(op: &str, uri: &HdfsUri, err: HdfsError) -> PluginError {
    let where_ = uri.display();
    match err {
        HdfsError::FileNotFound(_) => PluginError::not_found(uri),
        HdfsError::AlreadyExists(msg) => PluginError::new(
            TF_ALREADY_EXISTS,
            format!("{op} {where_}: already exists ({})", first_line(&msg)),
        ),
        HdfsError::IsADirectoryError(_) => PluginError::new(
            TF_FAILED_PRECONDITION,
            format!("{op} {where_}: is a directory, expected a file"),
        ),
        HdfsError::RPCError(class, msg) | HdfsError::FatalRPCError(class, msg) => {
            let code = code_for_exception(&class);
            let hint = match code {
                TF_NOT_FOUND => return PluginError::not_found(uri),
                TF_PERMISSION_DENIED => format!(
                    "; the HDFS user is {:?} (set HADOOP_USER_NAME to act as another user)",
                    std::env::var("HADOOP_USER_NAME").unwrap_or_else(|_| "<login user>".into())
                ),
                TF_UNAVAILABLE => "; the NameNode is not serving requests yet, retry later".into(),
                _ => String::new(),
            };
            PluginError::new(
                code,
                format!("{op} {where_}: {} ({}){hint}", first_line(&msg), short_class(&class)),
            )
        }
        HdfsError::IOError(io) => PluginError::new(
            TF_UNAVAILABLE,
            format!(
                "{op} {where_}: I/O error talking to HDFS at {}: {io}; check that the NameNode \
                 and DataNodes are running and reachable from this machine",
                endpoint(uri)
            ),
        ),
        HdfsError::BlocksNotFound(_) => PluginError::new(
            TF_UNAVAILABLE,
            format!("{op} {where_}: no DataNode could serve a block of this file (all replicas unreachable or missing)"),
        ),
        HdfsError::ChecksumError => PluginError::new(
            TF_DATA_LOSS,
            format!("{op} {where_}: checksum mismatch reading from a DataNode"),
        ),
        HdfsError::InvalidPath(msg) | HdfsError::InvalidArgument(msg) => PluginError::new(
            TF_INVALID_ARGUMENT,
            format!("{op} {where_}: {msg}"),
        ),
        HdfsError::UrlParseError(e) => PluginError::new(
            TF_INVALID_ARGUMENT,
            format!("{op} {where_}: not a valid HDFS URL ({e}); expected hdfs://host:port/path"),
        ),
        HdfsError::UnsupportedFeature(msg) | HdfsError::UnsupportedErasureCodingPolicy(msg) => {
            PluginError::new(TF_UNIMPLEMENTED, format!("{op} {where_}: not supported: {msg}"))
        }
        other => PluginError::new(TF_UNKNOWN, format!("{op} {where_}: HDFS error: {other}")),
    }
}

fn short_class(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// "host:port" when the URI names one, else the authority (nameservice) itself.
pub fn endpoint(uri: &HdfsUri) -> String {
    match uri.host_port() {
        Some((h, p)) => format!("{h}:{p}"),
        None if uri.authority.is_empty() => "fs.defaultFS".to_string(),
        None => uri.authority.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_names_the_uri() {
        let uri = HdfsUri::parse("hdfs://h:1/x/y").unwrap();
        let e = from_hdfs("open", &uri, HdfsError::FileNotFound("/x/y".into()));
        assert_eq!(e.code, TF_NOT_FOUND);
        assert!(e.message.contains("hdfs://h:1/x/y"), "{}", e.message);
    }

    #[test]
    fn access_control_is_permission_denied() {
        let uri = HdfsUri::parse("hdfs://h:1/p").unwrap();
        let e = from_hdfs(
            "list",
            &uri,
            HdfsError::RPCError(
                "org.apache.hadoop.security.AccessControlException".into(),
                "Permission denied: user=bob\n\tat x".into(),
            ),
        );
        assert_eq!(e.code, TF_PERMISSION_DENIED);
        assert!(!e.message.contains("\tat x"));
    }
}
