"""A class given TF 1.15's parameters keeps Python's class checks working, on ABCs too.

A stand-in answers `issubclass`/`isinstance` for the class it stands for. ABCMeta's own check
of that class asks each of its subclasses in turn, the stand-in among them: the stand-in must
not ask the class back, or the two ask each other until the recursion limit (a check against
any ABC above the class, such as TensorFlow Probability's and TensorFlow's distributions, did).
"""

import abc

from tf1compat.runner import tf115_signatures


class Base(abc.ABC):
    pass


class Reordered(Base):
    def __init__(self, a, b=1, name=None):
        self.a, self.b, self.name = a, b, name


# TF 1.15's order of the same parameters: `name` second
TF115_ORDER = [["a", "either"], ["name", "either", None], ["b", "either", 1]]


def _stand_in():
    stand_in = tf115_signatures._stand_in(Reordered, TF115_ORDER)
    assert stand_in is not Reordered, "no stand-in was made: the test checks nothing"
    return stand_in


def test_checks_against_an_abc_above_a_stand_in_end():
    stand_in = _stand_in()
    assert not isinstance(object(), Base)
    assert not issubclass(int, Base)
    assert not isinstance(3, stand_in)
    made = stand_in(2, 5)
    assert isinstance(made, Base) and isinstance(made, Reordered) and isinstance(made, stand_in)


def test_the_stand_in_still_answers_for_the_class_it_stands_for():
    stand_in = _stand_in()
    original = Reordered(1)
    assert isinstance(original, stand_in)
    assert issubclass(Reordered, stand_in)

    class Subclass(Reordered):
        pass

    assert issubclass(Subclass, stand_in) and isinstance(Subclass(1), stand_in)
    made = stand_in(7, "seven", 9)
    assert (made.a, made.name, made.b) == (7, "seven", 9)  # TF 1.15's order: name second
