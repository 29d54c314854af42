"""fwaudit: reads firewall configuration trees and answers questions about them."""
from .addr import ConfigError
from .config import load
from .evaluate import decide

__all__ = ["ConfigError", "load", "decide"]
