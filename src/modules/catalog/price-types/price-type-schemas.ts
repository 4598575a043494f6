import { Type, type Static } from 'typebox';
import { PagedResult } from '../../../http/paging.ts';
import { ShortText } from '../common-schemas.ts';

export const PriceTypeBody = Type.Object(
  {
    Id: Type.Optional(Type.Integer({ description: 'Ignored: the id is in the path or assigned.' })),
    Description: ShortText(),
    PriceTypeSymbol: Type.String({ minLength: 1, maxLength: 16 }),
  },
  { additionalProperties: false, title: 'PriceTypeRequest' },
);
export type PriceTypeBody = Static<typeof PriceTypeBody>;

export const PriceType = Type.Object(
  { Id: Type.Integer(), Description: Type.String(), PriceTypeSymbol: Type.String() },
  { title: 'PriceType' },
);
export type PriceType = Static<typeof PriceType>;
export const PriceTypeList = PagedResult(PriceType, 'PriceTypeList');
