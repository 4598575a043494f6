import { Type, type Static } from 'typebox';

export const SERVICE_TIERS = ['Developer', 'Standard', 'Premium'] as const;
export const SERVICE_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9-]{0,48}[a-zA-Z0-9]$/;

export const EndpointStatus = { InProgress: 1, Succeeded: 2, Failed: 3 } as const;

export const CreateEndpointBody = Type.Object(
  {
    AdminMail: Type.String({ description: 'Address that is told when provisioning ends.' }),
    ServiceName: Type.String({
      description:
        'Becomes the gateway host {ServiceName}.{INTEGRATION_HOST}; unique across tenants.',
    }),
    ServiceTier: Type.Integer({
      description: '0 Developer (10 req/s), 1 Standard (100 req/s), 2 Premium (1000 req/s).',
    }),
  },
  { additionalProperties: false, title: 'IntegrationEndpointRequest' },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

export const Endpoint = Type.Object(
  {
    ServiceName: Type.String(),
    ManagementPortalUrl: Type.String(),
    Status: Type.Integer({
      description: '1 creation in progress, 2 succeeded, 3 failed (create a new one).',
    }),
    ServiceTier: Type.Integer(),
    AdminMail: Type.String(),
    CreationDate: Type.String({ format: 'date-time' }),
  },
  { title: 'IntegrationEndpoint' },
);
export type Endpoint = Static<typeof Endpoint>;

export const SubscriptionKey = Type.Object(
  { SubscriptionKey: Type.String() },
  { title: 'SubscriptionKey' },
);
