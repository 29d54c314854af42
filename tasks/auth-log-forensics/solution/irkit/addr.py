"""Client addresses as reported: IPv6 compressed and lower-case without a %scope, IPv4-mapped
IPv6 as plain IPv4."""
import ipaddress


def normalise(text):
    text = text.strip().strip("[]")
    if "%" in text:
        text = text.split("%", 1)[0]
    a = ipaddress.ip_address(text)
    if a.version == 6 and a.ipv4_mapped is not None:
        return str(a.ipv4_mapped)
    return a.compressed
