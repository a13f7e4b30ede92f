"""TF1: the PTB word language model (tf.flags, contrib.rnn cells, static_rnn,
contrib.seq2seq.sequence_loss, a range_input_producer reader, tf.train.Supervisor)."""
import numpy as np
import tensorflow as tf

import ptb_reader as reader

flags = tf.flags
flags.DEFINE_string("data_path", None, "Where the ptb.*.txt files are.")
flags.DEFINE_string("save_path", None, "Model output directory.")
flags.DEFINE_integer("max_epoch", 2, "Epochs to train.")
FLAGS = flags.FLAGS


class SmallConfig(object):
    init_scale = 0.1
    learning_rate = 1.0
    max_grad_norm = 5
    num_layers = 2
    num_steps = 5
    hidden_size = 16
    keep_prob = 1.0
    batch_size = 4


class PTBInput(object):
    def __init__(self, config, data, name=None):
        self.batch_size = batch_size = config.batch_size
        self.num_steps = num_steps = config.num_steps
        self.epoch_size = ((len(data) // batch_size) - 1) // num_steps
        self.input_data, self.targets = reader.ptb_producer(data, batch_size, num_steps, name=name)


class PTBModel(object):
    def __init__(self, is_training, config, input_, vocab_size):
        self._input = input_
        batch_size, num_steps, size = input_.batch_size, input_.num_steps, config.hidden_size

        def lstm_cell():
            cell = tf.contrib.rnn.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True,
                                                reuse=tf.get_variable_scope().reuse)
            if is_training and config.keep_prob < 1:
                cell = tf.contrib.rnn.DropoutWrapper(cell, output_keep_prob=config.keep_prob)
            return cell

        cell = tf.contrib.rnn.MultiRNNCell([lstm_cell() for _ in range(config.num_layers)],
                                           state_is_tuple=True)
        self._initial_state = cell.zero_state(batch_size, tf.float32)
        embedding = tf.get_variable("embedding", [vocab_size, size], dtype=tf.float32)
        inputs = tf.nn.embedding_lookup(embedding, input_.input_data)
        inputs = tf.unstack(inputs, num=num_steps, axis=1)
        outputs, state = tf.contrib.rnn.static_rnn(cell, inputs,
                                                   initial_state=self._initial_state)
        output = tf.reshape(tf.concat(outputs, 1), [-1, size])
        softmax_w = tf.get_variable("softmax_w", [size, vocab_size], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [vocab_size], dtype=tf.float32)
        logits = tf.reshape(tf.nn.xw_plus_b(output, softmax_w, softmax_b),
                            [batch_size, num_steps, vocab_size])
        loss = tf.contrib.seq2seq.sequence_loss(logits, input_.targets,
                                                tf.ones([batch_size, num_steps], tf.float32),
                                                average_across_timesteps=False,
                                                average_across_batch=True)
        self._cost = tf.reduce_sum(loss)
        self._final_state = state
        if not is_training:
            return
        self._lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self._cost, tvars), config.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(self._lr)
        self._train_op = optimizer.apply_gradients(
            zip(grads, tvars), global_step=tf.train.get_or_create_global_step())
        self._new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self._lr_update = tf.assign(self._lr, self._new_lr)

    def assign_lr(self, session, lr_value):
        session.run(self._lr_update, feed_dict={self._new_lr: lr_value})


def run_epoch(session, model, eval_op=None):
    costs, iters = 0.0, 0
    state = session.run(model._initial_state)
    fetches = {"cost": model._cost, "final_state": model._final_state}
    if eval_op is not None:
        fetches["eval_op"] = eval_op
    for _ in range(model._input.epoch_size):
        feed_dict = {}
        for i, (c, h) in enumerate(model._initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        vals = session.run(fetches, feed_dict)
        state = vals["final_state"]
        costs += vals["cost"]
        iters += model._input.num_steps
    return np.exp(costs / iters)


def main(_):
    if not FLAGS.data_path:
        raise ValueError("Must set --data_path to PTB data directory")
    train_data, valid_data, _, vocab_size = reader.ptb_raw_data(FLAGS.data_path)
    config = SmallConfig()
    print("vocabulary:", vocab_size, "train words:", len(train_data))
    with tf.Graph().as_default():
        tf.set_random_seed(11)
        initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale,
                                                    seed=12)
        with tf.name_scope("Train"):
            train_input = PTBInput(config=config, data=train_data, name="TrainInput")
            with tf.variable_scope("Model", reuse=None, initializer=initializer):
                m = PTBModel(True, config, train_input, vocab_size)
            tf.summary.scalar("Training Loss", m._cost)
        with tf.name_scope("Valid"):
            valid_input = PTBInput(config=config, data=valid_data, name="ValidInput")
            with tf.variable_scope("Model", reuse=True, initializer=initializer):
                mvalid = PTBModel(False, config, valid_input, vocab_size)
        sv = tf.train.Supervisor(logdir=FLAGS.save_path, save_model_secs=0,
                                 save_summaries_secs=0)
        with sv.managed_session() as session:
            for i in range(FLAGS.max_epoch):
                m.assign_lr(session, config.learning_rate * (0.5 ** i))
                train_perplexity = run_epoch(session, m, eval_op=m._train_op)
                print("Epoch: %d Train Perplexity: %.2f" % (i + 1, train_perplexity))
                valid_perplexity = run_epoch(session, mvalid)
                print("Epoch: %d Valid Perplexity: %.2f" % (i + 1, valid_perplexity))
            print("global step:", session.run(tf.train.get_global_step()))
            sv.saver.save(session, FLAGS.save_path + "/model", global_step=sv.global_step)
        print("saved:", tf.train.latest_checkpoint(FLAGS.save_path).endswith("model-%d" % (
            2 * train_input.epoch_size)))


if __name__ == "__main__":
    tf.app.run()
