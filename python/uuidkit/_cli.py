"""The command line of ``python -m uuidkit`` (and ``uuidkit.main``): the standard module's
``python -m uuid`` of 3.12, with 3.14's additions (``uuid6``, ``uuid7``, ``uuid8``, ``-C``):
the same options, messages and exit statuses (2 for a bad argument)."""

import argparse
import sys

import uuidkit


def main(argv=None):
    """Run the uuid command line interface (``argv``: the arguments, default ``sys.argv[1:]``)."""
    uuid_funcs = {
        "uuid1": uuidkit.uuid1,
        "uuid3": uuidkit.uuid3,
        "uuid4": uuidkit.uuid4,
        "uuid5": uuidkit.uuid5,
        "uuid6": uuidkit.uuid6,
        "uuid7": uuidkit.uuid7,
        "uuid8": uuidkit.uuid8,
    }
    uuid_namespace_funcs = ("uuid3", "uuid5")
    namespaces = {
        "@dns": uuidkit.NAMESPACE_DNS,
        "@url": uuidkit.NAMESPACE_URL,
        "@oid": uuidkit.NAMESPACE_OID,
        "@x500": uuidkit.NAMESPACE_X500,
    }
    parser = argparse.ArgumentParser(
        prog="python -m uuidkit",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description="Generate a UUID using the selected UUID function.",
    )
    parser.add_argument(
        "-u", "--uuid", choices=uuid_funcs.keys(), default="uuid4",
        help="function to generate the UUID",
    )
    parser.add_argument(
        "-n", "--namespace", metavar="{any UUID,%s}" % ",".join(namespaces),
        help="uuid3/uuid5 only: a UUID, or a well-known predefined UUID addressed by "
        "namespace name",
    )
    parser.add_argument(
        "-N", "--name", help="uuid3/uuid5 only: name used as part of generating the UUID"
    )
    parser.add_argument(
        "-C", "--count", metavar="NUM", type=int, default=1, help="generate NUM fresh UUIDs"
    )
    args = parser.parse_args(argv)
    uuid_func = uuid_funcs[args.uuid]
    namespace = args.namespace
    name = args.name
    if args.uuid in uuid_namespace_funcs:
        if not namespace or not name:
            parser.error(
                "Incorrect number of arguments. "
                "%s requires a namespace and a name. "
                "Run 'python -m uuidkit -h' for more information." % args.uuid
            )
        if namespace in namespaces:
            namespace = namespaces[namespace]
        else:
            try:
                namespace = uuidkit.UUID(namespace)
            except ValueError as exc:
                parser.error("%s: %r" % (exc, args.namespace))
        for _ in range(args.count):
            print(uuid_func(namespace, name))
    else:
        for _ in range(args.count):
            print(uuid_func())


if __name__ == "__main__":
    sys.exit(main())
