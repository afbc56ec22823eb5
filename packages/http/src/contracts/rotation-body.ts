/**
 * The optional body of a secret rotation (API clients, webhook subscriptions): `grace_period_seconds`, how long
 * the secret rotated out keeps working beside the new one.
 */
export const rotationBodySchema = <const Id extends string, const Max extends number>(
  $id: Id,
  maximum: Max,
  description: string,
) =>
  ({
    $id,
    type: "object",
    additionalProperties: false,
    properties: { grace_period_seconds: { type: "integer", minimum: 0, maximum, description } },
  }) as const;
