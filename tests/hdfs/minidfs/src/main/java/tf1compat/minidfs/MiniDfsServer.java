package tf1compat.minidfs;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;

/**
 * A MiniDFSCluster for the tf1compat HDFS tests, bound to one address only: 127.0.0.1, or
 * the {@code --bind-host} given (a bridge address that network namespaces reach, so that
 * processes "on other nodes" read it as a remote cluster).
 *
 * <p>Prints one line {@code MINIDFS_READY port=N url=hdfs://HOST:N datanodes=K
 * startup_ms=T} on stdout once the cluster is active, then reads commands from stdin,
 * one per line, and answers each with a line starting with {@code OK} or {@code ERR}:
 *
 * <ul>
 *   <li>{@code ping}
 *   <li>{@code stop-datanode N} (keeps its data and port so it can come back)
 *   <li>{@code declare-dead N} (a stopped DataNode declared dead at the NameNode now)
 *   <li>{@code restart-datanode N}
 *   <li>{@code shutdown}
 * </ul>
 *
 * <p>stdin EOF (the test process died) and SIGTERM also shut the cluster down, so no
 * JVM is left behind holding ports.
 *
 * <p>Options: {@code --port N} (NameNode RPC port, 0 = pick a free one),
 * {@code --bind-host HOST} (an IPv4 address of this machine; default 127.0.0.1),
 * {@code --datanodes K} (default 2), {@code --block-size BYTES} (default 1 MiB, so a few
 * MiB already span several blocks), {@code --base-dir DIR} (storage; default a temp dir).
 */
public final class MiniDfsServer {
  private final MiniDFSCluster cluster;
  /** DataNodes stopped by a command, by index, so restart-datanode can bring them back. */
  private final Map<Integer, DataNodeProperties> stopped = new HashMap<>();

  /** Names of DataNodes as started: index -> 127.0.0.1:xferPort (stable across restarts). */
  private final Map<Integer, String> names = new HashMap<>();
  private boolean down = false;

  /** A temp dir we created and must remove on shutdown (null: the caller's --base-dir). */
  private final File ownedBaseDir;

  private MiniDfsServer(MiniDFSCluster cluster, File ownedBaseDir) {
    this.cluster = cluster;
    this.ownedBaseDir = ownedBaseDir;
    for (int i = 0; i < cluster.getDataNodes().size(); i++) {
      names.put(i, cluster.getDataNodes().get(i).getDatanodeId().getXferAddr());
    }
  }

  public static void main(String[] args) throws Exception {
    // Hadoop logs thousands of INFO lines per start; keep stderr readable in test output.
    // Must be set before the first logger is created. -Dorg.slf4j.simpleLogger... wins.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int port = 0;
    int datanodes = 2;
    long blockSize = 1L << 20;
    String baseDir = null;
    String host = "127.0.0.1";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--datanodes" -> datanodes = Integer.parseInt(args[++i]);
        case "--block-size" -> blockSize = Long.parseLong(args[++i]);
        case "--base-dir" -> baseDir = args[++i];
        case "--bind-host" -> host = args[++i];
        default -> {
          System.err.println("unknown argument: " + args[i]
              + "; accepted: --port N --bind-host HOST --datanodes K --block-size BYTES --base-dir DIR");
          System.exit(2);
        }
      }
    }
    boolean ownsBaseDir = baseDir == null;
    if (ownsBaseDir) {
      baseDir = java.nio.file.Files.createTempDirectory("minidfs").toString();
    }

    long start = System.nanoTime();
    Configuration conf = boundConf(host, baseDir, blockSize, Math.min(2, datanodes));

    boolean loopback = host.equals("127.0.0.1");
    int replication = Math.min(2, datanodes);
    // MiniDFSCluster advertises its NameNode at 127.0.0.1 whatever the configuration says,
    // and a NameNode records each DataNode at the address the DataNode called it from. So
    // for another host the NameNode listens on every address, and the DataNodes start after
    // it, told to call it at HOST: they register as HOST, which other namespaces reach.
    conf.set("dfs.namenode.rpc-bind-host", loopback ? host : "0.0.0.0");
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, new File(baseDir))
        .numDataNodes(loopback ? datanodes : 0)
        .nameNodePort(port)
        .format(true)
        .manageNameDfsDirs(true)
        .checkDataNodeAddrConfig(true)
        .build();
    if (!loopback) {
      // Built without DataNodes, the NameNode took replication 0 as its default: restart it
      // with the real one (same port, same storage).
      cluster.getConfiguration(0).setInt("dfs.replication", replication);
      cluster.restartNameNode(false);
      conf.setInt("dfs.replication", replication);
      String address = host + ":" + cluster.getNameNodePort();
      conf.set("fs.defaultFS", "hdfs://" + address);
      conf.set("dfs.namenode.rpc-address", address);
      conf.set("dfs.datanode.hostname", host);
      conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
      cluster.startDataNodes(conf, datanodes, null, true, null, null, null, null, null, false,
          true, true, null, null, null);
    }
    cluster.waitActive();
    waitRegistered(cluster);
    long startupMs = (System.nanoTime() - start) / 1_000_000;

    MiniDfsServer server = new MiniDfsServer(cluster, ownsBaseDir ? new File(baseDir) : null);
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownQuietly, "minidfs-stop"));

    int nnPort = cluster.getNameNodePort();
    System.out.println("MINIDFS_READY port=" + nnPort + " url=hdfs://" + host + ":" + nnPort
        + " datanodes=" + datanodes + " startup_ms=" + startupMs);
    System.out.flush();
    server.serveCommands();
    System.exit(0);
  }

  /** Until every DataNode has registered (waitActive can return before late starters did). */
  private static void waitRegistered(MiniDFSCluster cluster) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (cluster.getDataNodes().stream().anyMatch(dn -> dn.getDatanodeId() == null)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("DataNodes not registered within 120 s");
      }
      Thread.sleep(100);
    }
  }

  /** Everything on {@code host}, ephemeral ports, small blocks, replication 2. */
  private static Configuration boundConf(String host, String baseDir, long blockSize,
      int replication) {
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", baseDir);
    conf.set("dfs.namenode.http-address", host + ":0");
    conf.set("dfs.namenode.https-address", host + ":0");
    conf.set("dfs.namenode.secondary.http-address", host + ":0");
    // checkDataNodeAddrConfig(true) makes MiniDFSCluster keep these instead of its own.
    conf.set("dfs.datanode.address", host + ":0");
    conf.set("dfs.datanode.http.address", host + ":0");
    conf.set("dfs.datanode.ipc.address", host + ":0");
    conf.setLong("dfs.blocksize", blockSize);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", Math.min(blockSize, 1L << 20));
    conf.setInt("dfs.replication", replication);
    conf.setBoolean("dfs.permissions.enabled", true);
    // Report a stopped DataNode quickly, and do not wait for it in safe mode.
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.safemode.extension", 0);
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    // Clients reach DataNodes by the IP they registered with (the bound host).
    conf.setBoolean("dfs.client.use.datanode.hostname", false);
    conf.setBoolean("dfs.datanode.use.datanode.hostname", false);
    return conf;
  }

  private void serveCommands() throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] words = line.trim().split("\\s+");
      if (words.length == 0 || words[0].isEmpty()) {
        continue;
      }
      try {
        String reply = handle(words);
        System.out.println(reply);
        System.out.flush();
        if (words[0].equals("shutdown")) {
          return;
        }
      } catch (Exception e) {
        System.out.println("ERR " + words[0] + ": " + e);
        System.out.flush();
      }
    }
    // stdin closed: the test process is gone, so we go too.
  }

  private String handle(String[] words) throws IOException {
    switch (words[0]) {
      case "ping":
        return "OK pong datanodes_running=" + cluster.getDataNodes().size();
      case "stop-datanode": {
        int index = datanodeIndex(words);
        if (stopped.containsKey(index)) {
          return "ERR datanode " + index + " is already stopped";
        }
        // Indexes shift when a DataNode is removed from the cluster's list, so stop by
        // name: stopDataNode(String) looks it up among those still running.
        String name = nameOfDataNode(index);
        DataNodeProperties props = cluster.stopDataNode(name);
        if (props == null) {
          return "ERR no running datanode " + index;
        }
        stopped.put(index, props);
        return "OK stopped datanode " + index + " " + name;
      }
      case "declare-dead": {
        // What the NameNode does itself once a DataNode's heartbeats have been missing for
        // twice dfs.namenode.heartbeat.recheck-interval (10.5 minutes by default): from then
        // on no new block is placed on it and its replicas are no longer offered to readers.
        int index = datanodeIndex(words);
        DataNodeProperties props = stopped.get(index);
        if (props == null) {
          return "ERR datanode " + index + " was not stopped by stop-datanode";
        }
        cluster.setDataNodeDead(props.getDatanode().getDatanodeId());
        return "OK declared dead datanode " + index;
      }
      case "restart-datanode": {
        int index = datanodeIndex(words);
        DataNodeProperties props = stopped.remove(index);
        if (props == null) {
          return "ERR datanode " + index + " was not stopped by stop-datanode";
        }
        cluster.restartDataNode(props, true);
        cluster.waitActive();
        return "OK restarted datanode " + index;
      }
      case "shutdown":
        shutdownQuietly();
        return "OK shutdown";
      default:
        return "ERR unknown command " + words[0]
            + "; accepted: ping, stop-datanode N, declare-dead N, restart-datanode N, shutdown";
    }
  }

  private String nameOfDataNode(int index) {
    String name = names.get(index);
    if (name == null) {
      throw new IllegalArgumentException("no datanode " + index + "; the cluster has "
          + names.size() + " (0.." + (names.size() - 1) + ")");
    }
    return name;
  }

  private static int datanodeIndex(String[] words) {
    if (words.length != 2) {
      throw new IllegalArgumentException(words[0] + " takes one datanode index, e.g. "
          + words[0] + " 0");
    }
    return Integer.parseInt(words[1]);
  }

  private synchronized void shutdownQuietly() {
    if (down) {
      return;
    }
    down = true;
    try {
      cluster.shutdown(true);
    } catch (Exception e) {
      System.err.println("minidfs: shutdown failed: " + e);
    }
    if (ownedBaseDir != null) {
      try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(ownedBaseDir.toPath())) {
        walk.sorted(java.util.Comparator.reverseOrder()).map(java.nio.file.Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        System.err.println("minidfs: could not remove " + ownedBaseDir + ": " + e);
      }
    }
  }
}
