"""The engines that read the inputs and run the kernel over them: local and Ray."""

from __future__ import annotations

from .base import ENGINES, Batches, Job

__all__ = ["ENGINES", "Batches", "Job"]
