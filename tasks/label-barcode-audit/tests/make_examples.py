"""Renders the public examples and the shipped batch from gen.py (never run at grading time).

  python3 tests/make_examples.py          # from the task folder

writes environment/examples/ (labels with their expected decode output, an example batch with its
expected reconcile and audit outputs), environment/batch/ (the batch to reconcile and audit, no
answers), tests/examples/ and tests/batch/ (the grader's byte-identical copies), and
tests/examples_truth.json and tests/batch_truth.json (the planted answers).
"""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)
ENV_EX = os.path.join(TASK, "environment", "examples")
ENV_BATCH = os.path.join(TASK, "environment", "batch")
TEST_EX = os.path.join(HERE, "examples")
TEST_BATCH = os.path.join(HERE, "batch")


def dump(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def write(folder, files):
    for name, data in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def example_labels(rng):
    def look(**kw):
        lk = gen.default_look(rng)
        lk.update(kw)
        return lk

    return [
        ("ean-plain.png", gen.make_label(rng, "ean13", look(), first=0, split=False)),
        ("ean-seven.png", gen.make_label(rng, "ean13", look(blur=True), first=7, split=False)),
        ("ean-dark.png", gen.make_label(rng, "ean13", look(contrast="low"), first=3, split=False)),
        ("ean-badcheck.png", gen.make_label(rng, "ean13", look(), first=4, bad_check=1, split=False)),
        ("parcel-b.png", gen.make_label(rng, "code128", look(), form="b", split=False)),
        ("parcel-bc.png", gen.make_label(rng, "code128", look(), form="bc", low_pair=False, split=False)),
        ("parcel-flipped.png", gen.make_label(rng, "code128", look(rotated=True), form="b", split=False)),
        ("parcel-smear.png", gen.make_label(rng, "code128", look(damage="smear"), form="c", split=False)),
    ]


def main():
    for d in (ENV_EX, ENV_BATCH, TEST_EX, TEST_BATCH):
        shutil.rmtree(d, ignore_errors=True)
    rng = random.Random("label-barcode-audit examples")
    labels = example_labels(rng)
    files = {"labels/" + n: gen.render(rng, lab) for n, lab in labels}
    brng = random.Random("label-barcode-audit example batch")
    bfiles, btruth = gen.build_batch(brng, 3, 3, split=False)
    files.update({"batch/" + k: v for k, v in bfiles.items()})
    write(ENV_EX, files)
    write(TEST_EX, files)
    for ex in (ENV_EX, TEST_EX):  # the grader's copy holds the expected outputs too, byte for byte
        dump(os.path.join(ex, "expected", "decode.json"), {n: gen.full_reading(lab) for n, lab in labels})
        dump(os.path.join(ex, "expected", "reconcile.json"), btruth["reconcile"])
        dump(os.path.join(ex, "expected", "audit.json"), btruth["audit"])
    dump(os.path.join(HERE, "examples_truth.json"),
         {"labels": {n: gen.truth_of(lab) for n, lab in labels}, "batch": btruth})
    srng = random.Random("label-barcode-audit shipped batch")
    sfiles, struth = gen.build_batch(srng, 8, 8)
    write(ENV_BATCH, sfiles)
    write(TEST_BATCH, sfiles)
    dump(os.path.join(HERE, "batch_truth.json"), struth)
    print("examples: %d files, shipped batch: %d files" % (len(files), len(sfiles)))


if __name__ == "__main__":
    main()
