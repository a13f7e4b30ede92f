//! Splitting the URIs TensorFlow hands us (`hdfs://host:port/a/b`) into the parts the
//! client needs: which cluster (scheme + authority) and which path inside it.

/// One `scheme://authority/path` URI, as TensorFlow passes it after `TranslateName`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HdfsUri {
    pub scheme: String,
    /// `host:port`, a nameservice id, a viewfs cluster name, or empty for `fs.defaultFS`.
    pub authority: String,
    /// Absolute path inside the cluster; "/" when the URI has none.
    pub path: String,
}

impl HdfsUri {
    pub fn parse(uri: &str) -> Result<HdfsUri, String> {
        let (scheme, rest) = uri.split_once("://").ok_or_else(|| {
            format!("{uri:?} is not an HDFS URI; expected scheme://host:port/path, e.g. hdfs://namenode:8020/data/train.csv")
        })?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        Ok(HdfsUri { scheme: scheme.to_string(), authority: authority.to_string(), path: clean_path(path) })
    }

    /// The URL the client for this cluster is built with, e.g. `hdfs://127.0.0.1:9000`.
    pub fn cluster_url(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// (host, port) when the authority names a NameNode directly; None for a nameservice
    /// or viewfs cluster name, which hdfs-native resolves from HADOOP_CONF_DIR.
    pub fn host_port(&self) -> Option<(String, u16)> {
        let (host, port) = self.authority.rsplit_once(':')?;
        let port = port.parse().ok()?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        Some((host.to_string(), port))
    }

    /// The full URI again, for messages: what the user typed, normalised.
    pub fn display(&self) -> String {
        format!("{}://{}{}", self.scheme, self.authority, self.path)
    }
}

/// Lexically normalises an absolute path: no empty, "." or ".." components and no
/// trailing slash ("/a//b/./c/../" -> "/a/b"). HDFS itself rejects such components.
pub fn clean_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_host_port_and_path() {
        let u = HdfsUri::parse("hdfs://127.0.0.1:9000/a/b.csv").unwrap();
        assert_eq!(u.scheme, "hdfs");
        assert_eq!(u.authority, "127.0.0.1:9000");
        assert_eq!(u.path, "/a/b.csv");
        assert_eq!(u.host_port(), Some(("127.0.0.1".to_string(), 9000)));
    }

    #[test]
    fn nameservice_and_root() {
        let u = HdfsUri::parse("hdfs://ns1").unwrap();
        assert_eq!(u.path, "/");
        assert_eq!(u.host_port(), None);
        let u = HdfsUri::parse("viewfs://cluster/x/").unwrap();
        assert_eq!(u.path, "/x");
        assert_eq!(u.cluster_url(), "viewfs://cluster");
    }

    #[test]
    fn cleans_paths_but_keeps_authority() {
        let u = HdfsUri::parse("hdfs://h:1//a/./b/../c/").unwrap();
        assert_eq!(u.display(), "hdfs://h:1/a/c");
    }

    #[test]
    fn rejects_plain_paths() {
        assert!(HdfsUri::parse("/tmp/x").is_err());
    }
}
