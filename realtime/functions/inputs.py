"""Input building blocks shared by the functions' pydantic models."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints

Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


class Input(BaseModel):
    """Unknown keys are refused, so a typo never passes silently."""

    model_config = ConfigDict(extra="forbid", strict=True)
