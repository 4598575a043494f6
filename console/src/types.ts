// The wire shapes the console reads and writes (contract §5; PascalCase as on the wire).

export interface Price {
  PriceId?: number;
  NormalPrice: number;
  DiscountPrice: number | null;
  PriceTypeId: number;
  PriceTypeSymbol?: string;
}

export interface DynamicAttribute {
  TypeId: number;
  TypeValueId?: number;
  Value: string;
  TypeName?: string;
}

export interface Item {
  Id: number;
  SKU: string | null;
  Name: string | null;
  Title: string;
  Model: string | null;
  ShortDescription: string | null;
  LongDescription: string | null;
  ItemStatusId: number;
  CategoryId: number | null;
  BrandId: number | null;
  DefaultItemId: number | null;
  InStock: boolean | null;
  Prices: Price[];
  DynamicAttributes: DynamicAttribute[];
  Tags: { Id: number; Name: string }[];
}

export interface Facet {
  Id: number;
  Name: string;
  Count: number;
}

export interface SearchAnswer {
  SearchResult: {
    Items: Item[];
    TotalItemCount: number;
    StaticNavigation?: { Categories: Facet[]; Brands: Facet[]; Tags: Facet[] } | null;
  };
}

export interface Category {
  Id: number;
  Name: string;
  ShortDescription?: string | null;
  LongDescription?: string | null;
  ParentCategoryId: number | null;
  CategoryTreeItems?: Category[];
}

export interface Named {
  Id: number;
  Name: string;
}

export interface AttributeType {
  Id: number;
  Description: string;
}

export interface PriceType {
  Id: number;
  Description: string;
  PriceTypeSymbol: string;
}

export interface RelatedAsset {
  AssetId: number;
  AssetUrl: string;
  MimeType: string;
  FileName: string;
  IsDefault: boolean;
}

export interface Asset {
  Id: number;
  FileName: string;
  MimeType: string;
  Size: number;
  AssetUrl: string;
}

export interface Store {
  Id: number;
  Name: string;
  Description: string | null;
  Address: string | null;
  Location: { Longitude: number; Latitude: number };
}

export interface PhysicalDevice {
  DeviceId: string;
  Description: string | null;
  StoreId: number | null;
  StoreName: string | null;
}

export interface App {
  ApplicationId: string;
  ApplicationSecret: string | null;
  Name: string;
  Description: string | null;
  IsPredefined: boolean;
  ApplicationTypeId: number;
  ApplicationTypeDescription: string;
  CreatedDate: string;
}

export interface Endpoint {
  ServiceName: string;
  ManagementPortalUrl: string | null;
  Status: number;
  ServiceTier: number;
  AdminMail: string;
  CreationDate: string;
}

export interface Role {
  Id: string;
  Description: string;
}

export interface Member {
  Id: string;
  Username: string;
  Name: string;
  Roles: Role[];
}
