"""tf1compat.cluster: a server with our session options, its session target, replica_device_setter."""

from isolated import run_json


def test_server_gets_session_options_and_gives_the_session_target():
    result = run_json("""
        import json
        import tensorflow as tf
        from tf1compat import cluster
        from tf1compat.shared.cluster_spec import local_cluster
        from tf1compat.shared.errors import ClusterError

        jobs = local_cluster(1)
        with cluster.session(jobs, "worker", 0, cpus=2, soft_placement=True) as sess:
            server_config = sess.server.server_def.default_session_config
            total = tf.constant(20) + tf.constant(22)
            devices = sorted(d.name for d in sess.list_devices())
            answer = int(sess.run(total))
            target = sess.sess_str
            target = target.decode() if isinstance(target, bytes) else target
            filters = list(sess._config.device_filters)
        try:
            cluster.replica_device_setter(local_cluster(1, ps=1), "ps", 0)
            ps_error = ""
        except ClusterError as error:
            ps_error = str(error)
        print(json.dumps(dict(answer=answer, target=target, devices=devices,
                              cpus=server_config.device_count["CPU"],
                              soft=server_config.allow_soft_placement,
                              address=jobs.address("worker", 0), ps_error=ps_error,
                              filters=filters)))
    """, timeout=90)
    assert result["answer"] == 42
    assert result["target"] == "grpc://" + result["address"]
    assert result["cpus"] == 2 and result["soft"] is True
    assert "/job:worker/replica:0/task:0/device:CPU:1" in result["devices"]
    assert "ps:0 is a ps task" in result["ps_error"]
    assert result["filters"] == ["/job:worker/task:0"]  # never waits for other workers


def test_replica_device_setter_puts_variables_on_ps_and_ops_on_this_worker():
    result = run_json("""
        import json
        import tensorflow as tf
        from tf1compat import cluster

        jobs = {"ps": ["127.0.0.1:2222", "127.0.0.1:2223"], "worker": ["127.0.0.1:2224"] * 1}
        graph = tf.Graph()
        with graph.as_default(), tf.compat.v1.device(
                cluster.replica_device_setter(jobs, "worker", 0)):
            a = tf.compat.v1.get_variable("a", [2])
            b = tf.compat.v1.get_variable("b", [2])
            total = a + b
        print(json.dumps(dict(a=a.device, b=b.device, total=total.device)))
    """, timeout=120)
    assert result == {"a": "/job:ps/task:0", "b": "/job:ps/task:1",
                      "total": "/job:worker/task:0"}
