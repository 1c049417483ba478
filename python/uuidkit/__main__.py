"""``python -m uuidkit``: the command line of Python 3.14's ``python -m uuid``.

    python -m uuidkit [-u {uuid1,uuid3,uuid4,uuid5,uuid6,uuid7,uuid8}] [-n NAMESPACE]
                      [-N NAME] [-C NUM]
"""

import argparse
import sys

import uuidkit


def main(argv=None):
    generators = {
        "uuid1": uuidkit.uuid1,
        "uuid3": uuidkit.uuid3,
        "uuid4": uuidkit.uuid4,
        "uuid5": uuidkit.uuid5,
        "uuid6": uuidkit.uuid6,
        "uuid7": uuidkit.uuid7,
        "uuid8": uuidkit.uuid8,
    }
    named = {
        "@dns": uuidkit.NAMESPACE_DNS,
        "@url": uuidkit.NAMESPACE_URL,
        "@oid": uuidkit.NAMESPACE_OID,
        "@x500": uuidkit.NAMESPACE_X500,
    }
    parser = argparse.ArgumentParser(
        prog="python -m uuidkit",
        description="Generate UUIDs with the selected function (uuidkit's generators).",
    )
    parser.add_argument(
        "-u", "--uuid", choices=list(generators), default="uuid4",
        help="the function that generates the UUIDs (default: uuid4)",
    )
    parser.add_argument(
        "-n", "--namespace",
        help="the namespace: a UUID, or one of @dns, @url, @oid, @x500 (uuid3 and uuid5 only)",
    )
    parser.add_argument("-N", "--name", help="the name (uuid3 and uuid5 only)")
    parser.add_argument(
        "-C", "--count", metavar="NUM", type=int, default=1, help="generate NUM UUIDs (default: 1)"
    )
    args = parser.parse_args(argv)
    f = generators[args.uuid]
    if args.uuid in ("uuid3", "uuid5"):
        if not args.namespace or not args.name:
            parser.error(
                "%s needs a namespace (-n) and a name (-N); see 'python -m uuidkit -h'" % args.uuid
            )
        if args.namespace in named:
            ns = named[args.namespace]
        else:
            try:
                ns = uuidkit.UUID(args.namespace)
            except ValueError:
                parser.error("the namespace %r is not a UUID nor one of %s"
                             % (args.namespace, ", ".join(named)))
        for _ in range(args.count):
            print(f(ns, args.name))
    else:
        for _ in range(args.count):
            print(f())
    return 0


if __name__ == "__main__":
    sys.exit(main())
